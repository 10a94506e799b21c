/** Database row types of the auto-topup tables (sql/migrations/00033_agent_topups.sql); amounts arrive as text. */
export interface TopupConfigRow {
  id: string;
  team_id: string;
  environment: string;
  network: string;
  token_symbol: string;
  target_wallet: string;
  min_balance_threshold: string;
  topup_amount: string;
  enabled: boolean;
  armed: boolean;
  crossing: bigint;
  created_at: Date;
  updated_at: Date;
  seq: bigint;
}

/** What the monitor reads of a configuration. */
export type MonitoredConfig = Pick<
  TopupConfigRow,
  "id" | "team_id" | "environment" | "token_symbol" | "target_wallet" | "min_balance_threshold" | "topup_amount" | "armed"
>;

/** A configuration's claimed crossing. */
export type ClaimedConfig = Pick<
  TopupConfigRow,
  "id" | "team_id" | "environment" | "network" | "token_symbol" | "target_wallet" | "topup_amount" | "crossing"
>;

export interface FundingMandateRow {
  id: string;
  team_id: string;
  environment: string;
  network: string;
  token_symbol: string;
  funding_wallet: string;
  operator: string;
  authorized_amount: string;
  remaining_amount: string;
  daily_cap: string;
  /** the total the funder's consent signed for (consent.total); null for a consent recorded without it */
  signed_total: string | null;
  status: "ACTIVE" | "REVOKED";
  created_at: Date;
  updated_at: Date;
  seq: bigint;
}

export type DispatchStatus = "pending" | "confirmed" | "failed";

export interface DispatchRow {
  id: string;
  team_id: string;
  environment: string;
  config_id: string;
  crossing: bigint;
  funding_mandate_id: string | null;
  network: string;
  token_symbol: string;
  funding_wallet: string | null;
  target_wallet: string;
  amount: string;
  balance_seen: string;
  status: DispatchStatus;
  reason: string | null;
  detail: string | null;
  tx_hash: string | null;
  reference: string;
  from_block: string | null;
  /** recovery's read only: what was recorded before the broadcast (see the migration) */
  operator_nonce?: string | null;
  last_valid_height?: string | null;
  created_at: Date;
  updated_at: Date;
  seq: bigint;
}
