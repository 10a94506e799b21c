/**
 * The delivery log and what an operator does with it: list an endpoint's deliveries, read one with its
 * attempts, replay (the same message, so the same `webhook-id`, as a new delivery with a fresh schedule,
 * sent now), send the test event, and read the notifications (endpoints disabled on their own).
 */
import type { Sql } from "../../../db/client";
import { apiError } from "../../../lib/errors";
import { newId } from "../../../lib/ids";
import type { Tenant } from "../../../lib/tenant";
import { recordAudit, type Actor } from "../../audit/repo";
import { emitEvent, enqueueAttempt } from "../emit";
import { presentAttempt, presentDelivery } from "./present";
import { findDelivery, findMessage, insertDelivery, listAttempts, listDeliveryPage, listNotificationPage, type DeliveryPage } from "./repo";
import { getEndpointRow, type WebhookServiceDeps } from "../endpoints/manage";

export function listDeliveries(sql: Sql, tenant: Tenant, endpointId: string, page: DeliveryPage) {
  return listDeliveryPage(sql, tenant, endpointId, page);
}

export async function getDelivery(sql: Sql, tenant: Tenant, id: string) {
  const delivery = await findDelivery(sql, tenant, id);
  if (!delivery) throw apiError("not_found", `No webhook delivery ${id}`);
  return { ...presentDelivery(delivery), attemptLog: (await listAttempts(sql, tenant, id)).map(presentAttempt) };
}

/** Sends a message of this tenant to an endpoint again, now, as a new delivery (its first attempt queued at once). */
export async function replayMessage(
  deps: WebhookServiceDeps,
  tenant: Tenant,
  actor: Actor,
  { endpointId, messageId }: { endpointId: string; messageId: string },
) {
  const endpoint = await getEndpointRow(deps.sql, tenant, endpointId);
  if (!endpoint.enabled) throw apiError("conflict", `Webhook endpoint ${endpointId} is disabled: enable it first`);
  const now = new Date(deps.clock.now());
  const deliveryId = await deps.sql.begin(async (tx) => {
    if (!(await findMessage(tx, tenant, messageId))) throw apiError("not_found", `No webhook message ${messageId}`);
    const { id } = (await insertDelivery(tx, tenant, { id: newId("dlv"), endpointId, messageId }, now))!;
    await enqueueAttempt({ tx, tenant }, id, 1);
    await recordAudit(tx, {
      ...tenant,
      actor,
      action: "webhook_delivery.replay",
      resourceType: "webhook_endpoint",
      resourceId: endpointId,
      details: { messageId, deliveryId: id },
    });
    return id;
  });
  return getDelivery(deps.sql, tenant, deliveryId);
}

/** Replays a delivery's message to its endpoint. */
export async function replayDelivery(deps: WebhookServiceDeps, tenant: Tenant, actor: Actor, deliveryId: string) {
  const delivery = await findDelivery(deps.sql, tenant, deliveryId);
  if (!delivery) throw apiError("not_found", `No webhook delivery ${deliveryId}`);
  return replayMessage(deps, tenant, actor, { endpointId: delivery.endpoint_id, messageId: delivery.message_id });
}

/** `webhook.test` to this endpoint only, whatever its event filter. */
export async function sendTestEvent(deps: WebhookServiceDeps, tenant: Tenant, actor: Actor, endpointId: string) {
  const endpoint = await getEndpointRow(deps.sql, tenant, endpointId);
  if (!endpoint.enabled) throw apiError("conflict", `Webhook endpoint ${endpointId} is disabled: enable it first`);
  const at = new Date(deps.clock.now());
  return deps.sql.begin(async (tx) => {
    const sent = await emitEvent({ tx, tenant }, "webhook.test", { endpointId, message: "A test event from the dashboard" }, { at, endpointId });
    // Disabled between the read and this transaction.
    if (!sent.messageId) throw apiError("conflict", `Webhook endpoint ${endpointId} is disabled: enable it first`);
    await recordAudit(tx, {
      ...tenant,
      actor,
      action: "webhook_endpoint.test",
      resourceType: "webhook_endpoint",
      resourceId: endpointId,
      details: { messageId: sent.messageId },
    });
    return { messageId: sent.messageId, deliveryId: sent.deliveryIds[0]! };
  });
}

export const listNotifications = (sql: Sql, tenant: Tenant, beforeSeq: bigint | null, fetch: number) =>
  listNotificationPage(sql, tenant, "webhook_endpoint", { beforeSeq, limit: fetch });
