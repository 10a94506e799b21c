/** The SQL behind the credential store (credential-store.ts): keys and dashboard sessions by hash, and the batched lastUsedAt write. */
import type { Sql } from "../db/client";
import { queries, run, runOne } from "../db/queries";
import type { Tenant } from "../lib/tenant";

import type { SessionRow, KeyRow } from "./rows";
const Q = queries(["api_key_find_by_hash", "api_key_find_by_id", "api_key_touch_many", "dashboard_session_find_by_hash"]);

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
