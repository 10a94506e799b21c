/**
 * The outbox. `emitEvent({tx, tenant}, type, data)` runs inside the transaction of the state change it tells
 * of: it writes the message (its id is the `webhook-id`), one delivery per enabled endpoint subscribed to
 * the type, and one `webhook.attempt` job per delivery, so a commit never loses a webhook and a rollback
 * never sends one.
 * Cost on a state change: one indexed read of the tenant's enabled endpoints (nothing else when it has none
 * subscribed, which keeps hot paths such as a track creating a company cheap), else one statement for the
 * message and its deliveries plus one per job.
 */
import { enqueueJob } from "../../jobs/enqueue";
import { newId } from "../../lib/ids";
import type { OperationContext } from "../operation-context";
import type { EventType } from "./event-types";
import { insertMessage } from "./deliveries/repo";
import { listTargets } from "./endpoints/repo";

export interface EmitOptions {
  /** the event's time (payload `timestamp`; default now) */
  at?: Date;
  /** only this endpoint, whatever its filter (the test event) */
  endpointId?: string;
}

export interface Emitted {
  /** null when no endpoint was subscribed: nothing was written */
  messageId: string | null;
  deliveryIds: string[];
}

/** `data`, or a function that makes it, called only when some endpoint will receive it (it may read in `tx`). */
export type EventData = { readonly lazy: () => unknown } | Record<string, unknown>;

/**
 * Payload `{type, timestamp, data}` as Standard Webhooks recommends; `data` is the resource as the API
 * presents it (its presenter), given as is or as `{lazy: () => data}` when making it costs a read.
 */
export async function emitEvent(
  { tx, tenant }: Pick<OperationContext, "tx" | "tenant">,
  type: EventType,
  data: EventData,
  options: EmitOptions = {},
): Promise<Emitted> {
  const endpointIds = await listTargets(tx, tenant, type, options.endpointId ?? null);
  if (endpointIds.length === 0) return { messageId: null, deliveryIds: [] };
  const at = options.at ?? new Date();
  const messageId = newId("msg");
  const payload = typeof data.lazy === "function" ? await (data.lazy as () => unknown)() : data;
  const body = JSON.stringify({ type, timestamp: at.toISOString(), data: payload });
  const deliveries = await insertMessage(tx, tenant, {
    id: messageId,
    type,
    body,
    at,
    deliveryIds: endpointIds.map(() => newId("dlv")),
    endpointIds,
  });
  for (const d of deliveries) await enqueueAttempt({ tx, tenant }, d.id, 1);
  return { messageId, deliveryIds: deliveries.map((d) => d.id) };
}

/** Queues attempt `attempt` of a delivery (now, or at `runAt`). */
export const enqueueAttempt = ({ tx, tenant }: Pick<OperationContext, "tx" | "tenant">, deliveryId: string, attempt: number, runAt?: Date) =>
  enqueueJob(tx, "webhook.attempt", { teamId: tenant.teamId, environment: tenant.environment, deliveryId, attempt }, runAt ? { runAt } : {});
