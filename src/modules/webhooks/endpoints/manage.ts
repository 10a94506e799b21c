/**
 * Webhook endpoint management, behind the dashboard routes and the CLI alike: create, list, get, update,
 * delete, rotate and reveal the secret. Every change is audited in its transaction; secrets never appear
 * in a list, a log or an audit entry.
 */
import type { Sql } from "../../../db/client";
import { apiError } from "../../../lib/errors";
import type { Clock } from "../../../lib/clock";
import { newId } from "../../../lib/ids";
import type { Tenant } from "../../../lib/tenant";
import { recordAudit, type Actor } from "../../audit/repo";
import { DEFAULT_OVERLAP_SECONDS, MAX_OVERLAP_SECONDS } from "./schemas";
import { presentEndpoint } from "./present";
import { deleteEndpointRow, findEndpoint, insertEndpoint, listEndpointPage, lockEndpoint, rotateEndpointRow, updateEndpointRow } from "./repo";
import { type EndpointRow } from "./rows";
import { generateSecret, openSecret, sealSecret, type SealingKeys } from "../signing/secrets";
import { auditedUrl, checkEventTypes, checkUrl, type UrlRules } from "./validate";

export interface WebhookServiceDeps {
  sql: Sql;
  clock: Clock;
  config: SealingKeys & UrlRules;
}

export const notFound = (id: string) => apiError("not_found", `No webhook endpoint ${id}`);

export interface EndpointInput {
  url: string;
  description?: string | null;
  eventTypes?: string[];
  enabled?: boolean;
}

/** A new endpoint and its secret, shown this once (and again only through revealSecret). */
export async function createEndpoint(deps: WebhookServiceDeps, tenant: Tenant, actor: Actor, input: EndpointInput) {
  const url = checkUrl(input.url, deps.config);
  const eventTypes = checkEventTypes(input.eventTypes ?? []);
  const secret = generateSecret();
  const secretSealed = await sealSecret(deps.config, secret);
  const now = new Date(deps.clock.now());
  const row = await deps.sql.begin(async (tx) => {
    let created = await insertEndpoint(tx, tenant, { id: newId("wh"), url, description: input.description || null, eventTypes, secretSealed }, now);
    if (input.enabled === false) created = (await updateEndpointRow(tx, tenant, created.id, { enabled: false, now }))!;
    await recordAudit(tx, {
      ...tenant,
      actor,
      action: "webhook_endpoint.create",
      resourceType: "webhook_endpoint",
      resourceId: created.id,
      details: { url: auditedUrl(url), eventTypes, enabled: created.enabled },
    });
    return created;
  });
  return { ...presentEndpoint(row, now.getTime()), secret };
}

export async function listEndpoints(deps: Pick<WebhookServiceDeps, "sql">, tenant: Tenant, beforeSeq: bigint | null, fetch: number) {
  return listEndpointPage(deps.sql, tenant, beforeSeq, fetch);
}

export async function getEndpointRow(sql: Sql, tenant: Tenant, id: string): Promise<EndpointRow> {
  const row = await findEndpoint(sql, tenant, id);
  if (!row) throw notFound(id);
  return row;
}

export async function getEndpoint(deps: Pick<WebhookServiceDeps, "sql" | "clock">, tenant: Tenant, id: string) {
  return presentEndpoint(await getEndpointRow(deps.sql, tenant, id), deps.clock.now());
}

export interface EndpointPatch {
  url?: string;
  description?: string | null;
  eventTypes?: string[];
  enabled?: boolean;
}

/** Partial update; `enabled: true` re-enables a disabled endpoint and clears why it was disabled. */
export async function updateEndpoint(deps: WebhookServiceDeps, tenant: Tenant, actor: Actor, { id, patch }: { id: string; patch: EndpointPatch }) {
  const change = {
    url: patch.url === undefined ? undefined : checkUrl(patch.url, deps.config),
    description: patch.description === undefined ? undefined : (patch.description ?? ""),
    eventTypes: patch.eventTypes === undefined ? undefined : checkEventTypes(patch.eventTypes),
    enabled: patch.enabled,
  };
  const now = new Date(deps.clock.now());
  const row = await deps.sql.begin(async (tx) => {
    const updated = await updateEndpointRow(tx, tenant, id, { ...change, now });
    if (!updated) throw notFound(id);
    await recordAudit(tx, {
      ...tenant,
      actor,
      action: "webhook_endpoint.update",
      resourceType: "webhook_endpoint",
      resourceId: id,
      details: Object.fromEntries(Object.entries({ ...change, url: change.url && auditedUrl(change.url) }).filter(([, v]) => v !== undefined)),
    });
    return updated;
  });
  return presentEndpoint(row, now.getTime());
}

/** Deletes the endpoint with its delivery log; its pending attempts find nothing and stop. */
export async function deleteEndpoint(deps: Pick<WebhookServiceDeps, "sql" | "clock">, tenant: Tenant, actor: Actor, id: string) {
  const row = await deps.sql.begin(async (tx) => {
    const deleted = await deleteEndpointRow(tx, tenant, id);
    if (!deleted) throw notFound(id);
    await recordAudit(tx, {
      ...tenant,
      actor,
      action: "webhook_endpoint.delete",
      resourceType: "webhook_endpoint",
      resourceId: id,
      details: { url: auditedUrl(deleted.url) },
    });
    return deleted;
  });
  return presentEndpoint(row, deps.clock.now());
}

/**
 * A new current secret; the old one keeps signing beside it for `overlapSeconds` (default 24 h, at most
 * 7 days, 0: stops at once), so receivers can switch without dropping a delivery. A rotation during an
 * overlap ends the older overlap: only the secret current until now is kept.
 */
export async function rotateSecret(
  deps: WebhookServiceDeps,
  tenant: Tenant,
  actor: Actor,
  { id, overlapSeconds = DEFAULT_OVERLAP_SECONDS }: { id: string; overlapSeconds?: number },
) {
  if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > MAX_OVERLAP_SECONDS)
    throw apiError("validation_failed", "Validation failed", { "body.overlapSeconds": `An integer from 0 to ${MAX_OVERLAP_SECONDS}` });
  const now = new Date(deps.clock.now());
  const secret = generateSecret();
  const row = await deps.sql.begin(async (tx) => {
    // Locked: two rotations at once must chain (each keeping the secret the other made), or the secret
    // returned to the first caller would be lost without a word.
    const current = await lockEndpoint(tx, tenant, id);
    if (!current) throw notFound(id);
    // Sealed again under the current key: a rotation also moves the previous secret off a rotated TOKEN_SIGNING_SECRET.
    const previous = overlapSeconds > 0 ? await sealSecret(deps.config, await openSecret(deps.config, current.secret_sealed)) : null;
    const until = previous ? new Date(now.getTime() + overlapSeconds * 1000) : null;
    const rotated = (await rotateEndpointRow(tx, tenant, id, {
      secret: await sealSecret(deps.config, secret),
      previous,
      previousUntil: until,
      now,
    }))!;
    await recordAudit(tx, {
      ...tenant,
      actor,
      action: "webhook_endpoint.rotate_secret",
      resourceType: "webhook_endpoint",
      resourceId: id,
      details: { overlapSeconds, previousSecretExpiresAt: until?.toISOString() ?? null },
    });
    return rotated;
  });
  return { ...presentEndpoint(row, now.getTime()), secret };
}

/** The secrets that sign now, for an operator who needs them again; audited, as reading a secret is. */
export async function revealSecret(deps: WebhookServiceDeps, tenant: Tenant, actor: Actor, id: string) {
  const now = deps.clock.now();
  const row = await getEndpointRow(deps.sql, tenant, id);
  const overlapping = row.previous_secret_sealed && row.previous_expires_at && row.previous_expires_at.getTime() > now;
  const result = {
    secret: await openSecret(deps.config, row.secret_sealed),
    previousSecret: overlapping ? await openSecret(deps.config, row.previous_secret_sealed!) : null,
    previousSecretExpiresAt: overlapping ? row.previous_expires_at!.toISOString() : null,
  };
  await recordAudit(deps.sql, { ...tenant, actor, action: "webhook_endpoint.reveal_secret", resourceType: "webhook_endpoint", resourceId: id });
  return result;
}
