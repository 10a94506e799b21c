/**
 * One webhook endpoint: its settings and the edit form, the secret (reveal and rotate, each through a page of
 * its own), the test event, replay of a message, and the delivery log a page at a time; and one delivery with
 * every attempt (the response excerpt as the API gives it, printed as text) and its replay.
 */
import { Field, FormError, ListTable, OnceKey, Shell, when } from "../../layout";
import type { PageSession } from "../../session";
import {
  API,
  Done,
  type EndpointView,
  type EventTypeView,
  EventTypeBoxes,
  endpointPath,
  endpointStatus,
  filterText,
  type FormState,
  PATH,
} from "./page";
import { many } from "../../forms";

export interface AttemptView {
  attempt: number;
  statusCode: number | null;
  latencyMs: number | null;
  error: string | null;
  responseExcerpt: string | null;
  startedAt: string;
  finishedAt: string | null;
}

export interface DeliveryView {
  id: string;
  endpointId: string;
  messageId: string;
  eventType: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastLatencyMs: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
  attemptLog?: AttemptView[];
}

export const deliveryPath = (id: string) => `${PATH}/deliveries/${encodeURIComponent(id)}`;
const code = (n: number | null): string => (n === null ? "—" : String(n));
const ms = (n: number | null): string => (n === null ? "—" : `${n} ms`);
const text = (s: string | null | undefined): string => (s === null || s === undefined || s === "" ? "—" : s);
const valueOf = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v.join(",") : v);

export interface EndpointProps {
  session: PageSession;
  endpoint: EndpointView;
  eventTypes: EventTypeView[];
  deliveries: DeliveryView[];
  nextCursor: string | null;
  /** the edit form as sent, with the API's refusal */
  edit?: FormState;
  /** the replay-a-message form as sent, with the API's refusal */
  replay?: FormState;
  /** a refusal of a button without fields (the test event of a disabled endpoint: 409) */
  error?: string | null;
  done?: string;
  /** the delivery log's status filter, as the API takes it (`?status=`) */
  status?: string;
}

/** The delivery statuses the log filters on (GET …/deliveries `status`). */
const FILTERS: { status: string | undefined; label: string }[] = [
  { status: undefined, label: "all" },
  ...["pending", "delivered", "failed", "skipped"].map((status) => ({ status, label: status })),
];

/** An endpoint page's address with the log's filter and page. */
const logPath = (here: string, status: string | undefined, cursor?: string) => {
  const query = new URLSearchParams();
  if (status) query.set("status", status);
  if (cursor) query.set("cursor", cursor);
  const text = query.toString();
  return text ? `${here}?${text}` : here;
};

export function EndpointPage({ session, endpoint: e, eventTypes, deliveries, nextCursor, edit, replay, error, done, status }: EndpointProps) {
  const api = `${API}/{id}`;
  const canEdit = session.may("PATCH", api);
  const canDelete = session.may("DELETE", api);
  const canReveal = session.may("GET", `${api}/secret`);
  const canRotate = session.may("POST", `${api}/rotate-secret`);
  const canTest = session.may("POST", `${api}/test`);
  const canReplay = session.may("POST", `${api}/replay`);
  const here = endpointPath(e.id);
  const enabled = edit ? edit.values.enabled === "on" : e.enabled;
  const overlap = e.previousSecretExpiresAt ? `Until ${when(e.previousSecretExpiresAt)} the previous secret signs too.` : "";
  return (
    <Shell title="Webhook endpoint" session={session} path={PATH}>
      <p>
        <a href={PATH}>All endpoints</a>
      </p>
      <Done done={done} />
      <FormError message={error ?? null} />
      <section aria-labelledby="settings-title">
        <h2 id="settings-title">Settings</h2>
        <dl class="facts">
          <dt>URL</dt>
          <dd class="url">
            <code safe>{e.url}</code>
          </dd>
          <dt>Description</dt>
          <dd safe>{text(e.description)}</dd>
          <dt>Event types</dt>
          <dd safe>{filterText(e.eventTypes)}</dd>
          <dt>Status</dt>
          <dd safe>{endpointStatus(e)}</dd>
          <dt>Id</dt>
          <dd>
            <code safe>{e.id}</code>
          </dd>
          <dt>Created</dt>
          <dd safe>{when(e.createdAt)}</dd>
        </dl>
        {overlap ? (
          <p class="hint" safe>
            {overlap}
          </p>
        ) : (
          ""
        )}
        <ul class="actions">
          {canReveal ? (
            <li>
              <a href={`${here}/secret`}>Reveal signing secret</a>
            </li>
          ) : (
            ""
          )}
          {canRotate ? (
            <li>
              <a href={`${here}/rotate`}>Rotate signing secret</a>
            </li>
          ) : (
            ""
          )}
          {canDelete ? (
            <li>
              <a href={`${here}/delete`} class="danger-link">
                Delete endpoint
              </a>
            </li>
          ) : (
            ""
          )}
        </ul>
        {canTest ? (
          <form method="post" action={`${here}/test`} class="actions">
            <input type="hidden" name="csrf" value={session.csrfToken} />
            <OnceKey />
            <button type="submit">Send test event</button>
            <span class="hint">Sends webhook.test to this endpoint only, whatever its event types.</span>
          </form>
        ) : (
          ""
        )}
      </section>
      <ListTable
        lead={
          <p class="filters">
            Show deliveries:{" "}
            {FILTERS.map((f) => (
              <a href={logPath(here, f.status)} aria-current={f.status === status ? "page" : undefined} safe>
                {f.label}
              </a>
            ))}
          </p>
        }
        title={status ? `Deliveries (${status})` : "Deliveries"}
        empty={status ? `No ${status} deliveries.` : "No deliveries yet."}
        columns={["Event type", "Status", "Response code", "Attempts", "Created", "Next attempt", "Details"]}
        rows={deliveries.map((d) => (
          <tr>
            <td>
              <code class="event" safe>
                {d.eventType}
              </code>
            </td>
            <td safe>{d.status}</td>
            <td safe>{code(d.lastStatusCode)}</td>
            <td safe>{String(d.attempts)}</td>
            <td safe>{when(d.createdAt)}</td>
            <td safe>{when(d.nextAttemptAt)}</td>
            <td>
              <a href={deliveryPath(d.id)}>
                Open<span class="visually-hidden" safe>{` delivery ${d.id}`}</span>
              </a>
            </td>
          </tr>
        ))}
      >
        {nextCursor ? (
          <p>
            <a href={logPath(here, status, nextCursor)}>Next page</a>
          </p>
        ) : (
          ""
        )}
      </ListTable>
      {canReplay ? (
        <section aria-labelledby="replay-title">
          <h2 id="replay-title">Replay a message</h2>
          <FormError message={replay?.error ?? null} />
          <form method="post" action={`${here}/replay`} class="stack">
            <input type="hidden" name="csrf" value={session.csrfToken} />
            <OnceKey />
            <Field
              name="messageId"
              label="Message id"
              value={valueOf(replay?.values.messageId)}
              error={replay?.fields.messageId}
              hint="msg_…: the webhook-id of a message of this environment; sent to this endpoint again, now."
              required
            />
            <button type="submit">Replay message</button>
          </form>
        </section>
      ) : (
        ""
      )}
      {canEdit ? (
        <section aria-labelledby="edit-title">
          <h2 id="edit-title">Edit</h2>
          <FormError message={edit?.error ?? null} />
          <form method="post" action={here} class="stack">
            <input type="hidden" name="csrf" value={session.csrfToken} />
            <Field name="url" label="URL" type="url" value={valueOf(edit?.values.url) ?? e.url} error={edit?.fields.url} required />
            <Field
              name="description"
              label="Description (optional)"
              value={valueOf(edit?.values.description) ?? e.description ?? ""}
              error={edit?.fields.description}
            />
            <EventTypeBoxes types={eventTypes} checked={edit ? many(edit.values.eventTypes) : e.eventTypes} error={edit?.fields.eventTypes} />
            <div class={edit?.fields.enabled ? "field check invalid" : "field check"}>
              <input type="checkbox" id="enabled" name="enabled" value="on" checked={enabled} /> <label for="enabled">Enabled</label>
              <p class="hint">Enabling a disabled endpoint clears why it was disabled; replay what it missed.</p>
            </div>
            <button type="submit" class="primary">
              Save
            </button>
          </form>
        </section>
      ) : (
        <p class="hint">Your role lets you read webhooks, not change them or see their secrets.</p>
      )}
    </Shell>
  );
}

export function DeliveryPage({ session, delivery: d, done }: { session: PageSession; delivery: DeliveryView; done?: string }) {
  const canReplay = session.may("POST", "/dashboard/webhooks/deliveries/{id}/replay");
  const attempts = d.attemptLog ?? [];
  return (
    <Shell title="Webhook delivery" session={session} path={PATH}>
      <p>
        <a href={endpointPath(d.endpointId)}>Back to the endpoint</a>
      </p>
      <Done done={done} />
      <section aria-labelledby="delivery-title">
        <h2 id="delivery-title">Delivery</h2>
        <dl class="facts">
          <dt>Event type</dt>
          <dd>
            <code safe>{d.eventType}</code>
          </dd>
          <dt>Status</dt>
          <dd safe>{d.status}</dd>
          <dt>Response code</dt>
          <dd safe>{code(d.lastStatusCode)}</dd>
          <dt>Attempts</dt>
          <dd safe>{String(d.attempts)}</dd>
          <dt>Latency</dt>
          <dd safe>{ms(d.lastLatencyMs)}</dd>
          <dt>Last error</dt>
          <dd safe>{text(d.lastError)}</dd>
          <dt>Message (webhook-id)</dt>
          <dd>
            <code safe>{d.messageId}</code>
          </dd>
          <dt>Created</dt>
          <dd safe>{when(d.createdAt)}</dd>
          <dt>Delivered</dt>
          <dd safe>{when(d.deliveredAt)}</dd>
          <dt>Next attempt</dt>
          <dd safe>{when(d.nextAttemptAt)}</dd>
        </dl>
        {canReplay ? (
          <form method="post" action={`${deliveryPath(d.id)}/replay`} class="actions">
            <input type="hidden" name="csrf" value={session.csrfToken} />
            <OnceKey />
            <button type="submit">Replay delivery</button>
            <span class="hint">Sends the same message (same webhook-id and body) again, now, as a new delivery.</span>
          </form>
        ) : (
          ""
        )}
      </section>
      <section aria-labelledby="attempts-title">
        <h2 id="attempts-title">Attempts</h2>
        {attempts.length === 0 ? (
          <p>No attempt yet: the first is queued.</p>
        ) : (
          <div class="table-wrap" tabindex="0">
            <table>
              <thead>
                <tr>
                  <th scope="col">Attempt</th>
                  <th scope="col">Started</th>
                  <th scope="col">Response code</th>
                  <th scope="col">Latency</th>
                  <th scope="col">Error</th>
                  <th scope="col">Response (first 1 KiB)</th>
                </tr>
              </thead>
              <tbody>
                {attempts.map((a) => (
                  <tr>
                    <td safe>{String(a.attempt)}</td>
                    <td safe>{when(a.startedAt)}</td>
                    <td safe>{code(a.statusCode)}</td>
                    <td safe>{ms(a.latencyMs)}</td>
                    <td safe>{text(a.error)}</td>
                    <td>
                      <pre class="excerpt" safe>
                        {text(a.responseExcerpt)}
                      </pre>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </Shell>
  );
}
