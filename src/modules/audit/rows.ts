/** Database row types of this folder (repo.ts reads and writes them). */
export interface AuditRow {
  id: string;
  actor_kind: string;
  actor_id: string;
  action: string;
  resource_type: string;
  resource_id: string;
  request_id: string | null;
  details: Record<string, unknown>;
  created_at: Date;
  seq: bigint;
  chain_seq: bigint;
  prev_hash: string;
  hash: string;
}

/** One audit entry as the chain check reads it: its stored hash and the one recomputed from its content. */
export interface ChainRow {
  id: string;
  chain_seq: bigint;
  prev_hash: string;
  hash: string;
  recomputed: string;
}
