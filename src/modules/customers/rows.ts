/** Database row types of companies and users. */
export interface CompanyRow {
  id: string;
  external_id: string | null;
  name: string | null;
  email: string | null;
  wallet_address: string | null;
  logo_url: string | null;
  traits: Record<string, unknown>;
  active_plan_id: string | null;
  active_add_on_ids: string[];
  /** Selected by the queries whose rows are presented (list, find by ref, update, set plan). */
  billing_anchor?: Date | null;
  created_at: Date;
  last_seen_at: Date;
  seq: bigint;
}

export interface UserRow {
  id: string;
  external_id: string | null;
  idp_user_id: string | null;
  name: string | null;
  email: string | null;
  wallet_address: string | null;
  traits: Record<string, unknown>;
  created_at: Date;
  last_seen_at: Date;
  seq: bigint;
  company_ids?: string[];
}
