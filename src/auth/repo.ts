/** The SQL behind the credential store (credential-store.ts): keys and dashboard sessions by hash, and the batched lastUsedAt write. */
import type { Sql } from "../db/client";
import { queries, run, runOne } from "../db/queries";
import type { Environment, Tenant } from "../lib/tenant";
import type { KeyType } from "./kinds";

const Q = queries(["api_key_find_by_hash", "api_key_find_by_id", "api_key_touch_many", "dashboard_session_find_by_hash"]);

export interface SessionRow {
  id: string;
  team_id: string;
  environment: Environment;
  operator_id: string;
  member_id: string;
  roles: string[];
  member_status: string;
  expires_at: Date;
  revoked_at: Date | null;
}

export interface KeyRow {
  id: string;
  team_id: string;
  environment: Environment;
  type: KeyType;
  permissions: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
}

export const findKeyByHash = (sql: Sql, hash: string) => runOne<KeyRow>(sql, Q.api_key_find_by_hash, [hash]);

/** by `[teamId, environment, keyId]` */
export const findKeyById = (sql: Sql, key: string[]) => runOne<KeyRow>(sql, Q.api_key_find_by_id, key);

export const findSessionByHash = (sql: Sql, hash: string) => runOne<SessionRow>(sql, Q.dashboard_session_find_by_hash, [hash]);

/** Records when each key was last used, in one statement. */
export async function touchKeys(sql: Sql, uses: readonly { tenant: Tenant; keyId: string; usedAt: number }[]): Promise<void> {
  await run(sql, Q.api_key_touch_many, [
    uses.map((u) => u.tenant.teamId),
    uses.map((u) => u.tenant.environment),
    uses.map((u) => u.keyId),
    uses.map((u) => new Date(u.usedAt).toISOString()),
  ]);
}
