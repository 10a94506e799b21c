/** Database row type of a track event. */
export interface EventRow {
  id: string;
  name: string;
  company_id: string | null;
  user_id: string | null;
  traits: Record<string, unknown>;
  sent_at: Date;
  seq: bigint;
}
