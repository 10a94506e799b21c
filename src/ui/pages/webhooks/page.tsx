/**
 * Webhooks: the session environment's endpoints (the URL printed as text, never a link), the operator notices
 * (endpoints the service disabled), and the create form with the event types as checkboxes.
 * The endpoint's page, its deliveries and the confirmation steps: ./detail.tsx, ./confirm.tsx.
 */
import { Field, FormError, ListTable, OnceKey, Shell, when } from "../../layout";
import type { PageSession } from "../../session";
import { many } from "../../forms";

export interface EndpointView {
  id: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface EventTypeView {
  type: string;
  emitted: boolean;
  description: string;
}

export interface NotificationView {
  id: string;
  kind: string;
  resourceType: string;
  resourceId: string;
  message: string;
  createdAt: string;
}

/** A form as the operator sent it, with the API's refusal: its message, and `details` by field. */
export interface FormState {
  values: Record<string, string | string[] | undefined>;
  error: string | null;
  fields: Record<string, string>;
}

export const PATH = "/dashboard/webhooks";
export const API = "/dashboard/webhooks/endpoints";
export const endpointPath = (id: string) => `${PATH}/${encodeURIComponent(id)}`;

const textOf = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value.join(",") : value);

/** The endpoint's filter as people read it: empty means every event type (docs/webhooks.md). */
export const filterText = (types: string[]): string => (types.length ? types.join(", ") : "All event types");
export const endpointStatus = (e: EndpointView): string =>
  e.enabled ? "Enabled" : `Disabled${e.disabledReason ? `: ${e.disabledReason}` : ""}${e.disabledAt ? ` (${when(e.disabledAt)})` : ""}`;

/** What a redirect after a write says it did (`?done=…`), from a fixed list: the query never prints as given. */
export const DONE: Record<string, string> = {
  created: "Endpoint created. Reveal its signing secret below to verify deliveries.",
  updated: "Endpoint saved.",
  test: "Test event queued: its delivery is in the log below.",
  replayed: "Replay queued as a new delivery (same webhook-id): it is in the log below.",
  deleted: "Endpoint deleted, with its delivery log.",
};

export function Done({ done }: { done?: string }) {
  const text = done ? DONE[done] : undefined;
  if (!text) return "";
  return (
    <p class="notice" role="status" safe>
      {text}
    </p>
  );
}

/**
 * The event types as checkboxes (none checked: all of them). `webhook.test` is not among them: the API sends it
 * only through the test button, whatever the filter, and refuses it in one (GET …/event-types says so).
 */
export function EventTypeBoxes({ types, checked, error }: { types: EventTypeView[]; checked: string[]; error?: string }) {
  return (
    <fieldset class={error ? "field invalid event-types" : "field event-types"} aria-describedby={error ? "eventTypes-error" : "eventTypes-hint"}>
      <legend>Event types</legend>
      <p class="hint" id="eventTypes-hint">
        None checked: every event type, including those added later.
      </p>
      <ul class="checks">
        {types
          .filter((t) => t.type !== "webhook.test")
          .map((t) => {
            const id = `event-${t.type.replace(/[^\w-]/g, "-")}`;
            const note = t.emitted ? t.description : `${t.description} (not sent yet)`;
            return (
              <li>
                <input type="checkbox" id={id} name="eventTypes" value={t.type} checked={checked.includes(t.type)} />{" "}
                <label for={id}>
                  <code safe>{t.type}</code>{" "}
                  <span class="hint" safe>
                    {note}
                  </span>
                </label>
              </li>
            );
          })}
      </ul>
      {error ? (
        <p class="field-error" id="eventTypes-error" safe>
          {error}
        </p>
      ) : (
        ""
      )}
    </fieldset>
  );
}

export interface WebhooksProps {
  session: PageSession;
  endpoints: EndpointView[];
  nextCursor: string | null;
  notifications: NotificationView[];
  eventTypes: EventTypeView[];
  form?: FormState;
  done?: string;
}

export function WebhooksPage({ session, endpoints, nextCursor, notifications, eventTypes, form, done }: WebhooksProps) {
  const canCreate = session.may("POST", API);
  return (
    <Shell title="Webhooks" session={session} path={PATH}>
      <Done done={done} />
      {notifications.length ? (
        <section aria-labelledby="notices-title" class="notices">
          <h2 id="notices-title">Notices</h2>
          <ul>
            {notifications.map((n) => (
              <li>
                <span safe>{when(n.createdAt)}</span>: <span safe>{n.message}</span>{" "}
                {n.resourceType === "webhook_endpoint" ? (
                  <a href={endpointPath(n.resourceId)}>
                    Open endpoint<span class="visually-hidden" safe>{` ${n.resourceId}`}</span>
                  </a>
                ) : (
                  ""
                )}
              </li>
            ))}
          </ul>
        </section>
      ) : (
        ""
      )}
      <ListTable
        title={`Endpoints in ${session.environment}`}
        empty="No webhook endpoints yet."
        columns={["URL", "Description", "Event types", "Status", "Created", "Details"]}
        rows={endpoints.map((e) => (
          <tr>
            <td class="url">
              <code safe>{e.url}</code>
            </td>
            <td safe>{e.description ?? "—"}</td>
            <td safe>{filterText(e.eventTypes)}</td>
            <td safe>{endpointStatus(e)}</td>
            <td safe>{when(e.createdAt)}</td>
            <td>
              <a href={endpointPath(e.id)}>
                Open<span class="visually-hidden" safe>{` endpoint ${e.url}`}</span>
              </a>
            </td>
          </tr>
        ))}
      >
        {nextCursor ? (
          <p>
            <a href={`${PATH}?cursor=${encodeURIComponent(nextCursor)}`}>Next page</a>
          </p>
        ) : (
          ""
        )}
      </ListTable>
      {canCreate ? (
        <section aria-labelledby="create-title">
          <h2 id="create-title">Add an endpoint</h2>
          <FormError message={form?.error ?? null} />
          <form method="post" action={PATH} class="stack">
            <input type="hidden" name="csrf" value={session.csrfToken} />
            <OnceKey />
            <Field
              name="url"
              label="URL"
              type="url"
              value={textOf(form?.values.url)}
              error={form?.fields.url}
              hint="Where deliveries are POSTed: https, no user name or password in it."
              required
            />
            <Field name="description" label="Description (optional)" value={textOf(form?.values.description)} error={form?.fields.description} />
            <EventTypeBoxes types={eventTypes} checked={many(form?.values.eventTypes)} error={form?.fields.eventTypes} />
            <button type="submit" class="primary">
              Add endpoint
            </button>
          </form>
        </section>
      ) : (
        <p class="hint">Your role lets you read webhooks, not change them.</p>
      )}
    </Shell>
  );
}
