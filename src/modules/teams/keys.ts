/**
 * Operator use cases behind the CLI (the dashboard's stand-in): teams, API keys, dashboard sessions.
 * Keys are created and revoked only here, never through the REST API (spec rule 2). The raw key is
 * returned once, from `createKey`; only its SHA-256 and its first 16 characters are stored.
 */
import type { Sql } from "../../db/client";
import { newId } from "../../lib/ids";
import { sha256Hex } from "../../lib/hash";
import { apiError } from "../../lib/errors";
import { PERMISSIONS, PUBLISHABLE_PERMISSIONS, type KeyType } from "../../auth/kinds";
import { KEY_PREFIX_LENGTH, generateRawKey } from "../../auth/key-format";
import { recordAudit, type Actor } from "../audit/repo";
import type { Environment, Tenant } from "../../lib/tenant";
import { insertKey, listKeyRows, notifyRevoked, revokeKeyRow } from "./repo";
import { OPERATOR } from "./roles";
import type { KeyRow } from "./rows";
import { requireTeam } from "./team";

/** The spec's API key record: never the raw key, never the hash. */
export const presentKey = (r: KeyRow) => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  description: r.description,
  type: r.type,
  permissions: r.permissions,
  environmentMode: r.environment === "production" ? ("PRODUCTION" as const) : ("DEVELOPMENT" as const),
  expiresAt: r.expires_at?.toISOString() ?? null,
  revokedAt: r.revoked_at?.toISOString() ?? null,
  lastUsedAt: r.last_used_at?.toISOString() ?? null,
  createdAt: r.created_at.toISOString(),
});

export interface NewKey {
  teamId: string;
  environment: Environment;
  type: KeyType;
  name: string;
  description?: string | null;
  permissions?: string[];
  expiresAt?: Date | null;
}

function checkPermissions(type: KeyType, requested: string[] | undefined): string[] {
  const permissions = [...new Set(requested ?? [])];
  const unknown = permissions.filter((p) => !(PERMISSIONS as readonly string[]).includes(p));
  if (unknown.length) throw apiError("validation_failed", "Unknown permission", { permissions: `Not in the catalog: ${unknown.join(", ")}` });
  if (type === "RESTRICTED" && permissions.length === 0)
    throw apiError("validation_failed", "Restricted keys need permissions", { permissions: "At least one permission" });
  if (type === "LEGACY" && permissions.length)
    throw apiError("validation_failed", "Legacy keys carry no permissions", { permissions: "Must be empty" });
  if (type === "PUBLISHABLE") {
    if (permissions.length === 0) return [...PUBLISHABLE_PERMISSIONS];
    const unsafe = permissions.filter((p) => !(PUBLISHABLE_PERMISSIONS as readonly string[]).includes(p));
    if (unsafe.length)
      throw apiError("validation_failed", "Publishable keys are client-safe only", {
        permissions: `Not allowed on a publishable key: ${unsafe.join(", ")}`,
      });
  }
  return permissions;
}

/** `actor`: the operator CLI, or the dashboard member creating it (POST /dashboard/api-keys). */
export async function createKey(sql: Sql, input: NewKey, now: number, actor: Actor = OPERATOR) {
  const permissions = checkPermissions(input.type, input.permissions);
  if (input.expiresAt && input.expiresAt.getTime() <= now)
    throw apiError("validation_failed", "Expiry must be in the future", { expiresAt: "Must be in the future" });
  await requireTeam(sql, input.teamId);
  const raw = generateRawKey(input.type, input.environment);
  const row = await sql.begin(async (tx) => {
    const created = await insertKey(tx, {
      id: newId("key"),
      teamId: input.teamId,
      environment: input.environment,
      name: input.name,
      description: input.description ?? null,
      type: input.type,
      prefix: raw.slice(0, KEY_PREFIX_LENGTH),
      keyHash: sha256Hex(raw),
      permissions,
      expiresAt: input.expiresAt ?? null,
    });
    await recordAudit(tx, {
      teamId: input.teamId,
      environment: input.environment,
      actor,
      action: "api_key.create",
      resourceType: "api_key",
      resourceId: created!.id,
      details: { name: input.name, type: input.type, permissions, expiresAt: input.expiresAt?.toISOString() ?? null },
    });
    return created!;
  });
  return { ...presentKey(row), key: raw };
}

export async function listKeys(sql: Sql, teamId: string, environment: Environment) {
  return (await listKeyRows(sql, { teamId, environment })).map(presentKey);
}

export async function revokeKey(sql: Sql, { teamId, environment }: Tenant, keyId: string, actor: Actor = OPERATOR) {
  const row = await sql.begin(async (tx) => {
    const revoked = await revokeKeyRow(tx, { teamId, environment }, keyId);
    if (!revoked) throw apiError("not_found", `No key ${keyId} in team ${teamId} (${environment})`);
    await recordAudit(tx, { teamId, environment, actor, action: "api_key.revoke", resourceType: "api_key", resourceId: keyId });
    // Every instance evicts the key from its cache when this commits.
    await notifyRevoked(tx, keyId);
    return revoked;
  });
  return presentKey(row);
}
