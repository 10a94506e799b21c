/**
 * The webhooks section's routes (docs/dashboard.md#pages): the endpoints with the operator notices and the
 * create form; an endpoint's page (edit, test event, replay of a message, the delivery log); a delivery with
 * its attempts and replay; the secret's reveal and rotation and the delete, each through a page of its own.
 */
import { fieldErrors, type Api, type ApiAnswer } from "../../api";
import { csrfMatches, formOf, given, type Form, type Section } from "../../kit";
import { integer, many } from "../../forms";
import { page, redirect } from "../../response";
import type { PageSession } from "../../session";
import { DeletePage, RevealPage, RotatePage, SecretPage } from "./confirm";
import { DeliveryPage, type EndpointProps, EndpointPage } from "./detail";
import { API, type EndpointView, endpointPath, type FormState, PATH, WebhooksPage, type WebhooksProps } from "./page";

const cursorQuery = (cursor: string | undefined) => (cursor ? `?cursor=${encodeURIComponent(cursor)}` : "");
const apiEndpoint = (id: string) => `${API}/${encodeURIComponent(id)}`;
/** The form as the operator sent it (checkboxes of one name arrive as a list), kept to print it back. */
const sentValues = (form: Form) => form as unknown as FormState["values"];
const stateOf = (form: Form, answer: ApiAnswer): FormState => {
  const { form: error, fields } = fieldErrors(answer, form);
  return { values: sentValues(form), error, fields };
};

export const webhookPages: Section = (kit) => (app) => {
  const eventTypes = async (api: Api) => {
    const answer = await api({ method: "GET", path: "/dashboard/webhooks/event-types" });
    return answer.status === 200 ? answer.body.data : [];
  };

  const listPage = async (api: Api, session: PageSession, cursor: string | undefined, extra: Partial<WebhooksProps> = {}, status = 200) => {
    const list = await api({ method: "GET", path: `${API}${cursorQuery(cursor)}` });
    if (list.status !== 200) return kit.refusedBy(list, "The webhook endpoints could not be read", session);
    const notices = await api({ method: "GET", path: "/dashboard/webhooks/notifications?limit=20" });
    const props = {
      session,
      endpoints: list.body.data,
      nextCursor: list.body.nextCursor ?? null,
      notifications: notices.status === 200 ? notices.body.data : [],
      eventTypes: await eventTypes(api),
    };
    return page(<WebhooksPage {...props} {...extra} />, status);
  };

  const readEndpoint = (api: Api, id: string) => api({ method: "GET", path: apiEndpoint(id) });

  const endpointPage = async (
    api: Api,
    session: PageSession,
    id: string,
    cursor: string | undefined,
    extra: Partial<EndpointProps> = {},
    status = 200,
  ) => {
    const endpoint = await readEndpoint(api, id);
    if (endpoint.status !== 200) return kit.refusedBy(endpoint, "The endpoint could not be read", session);
    const query = new URLSearchParams();
    if (extra.status) query.set("status", extra.status);
    if (cursor) query.set("cursor", cursor);
    const deliveries = await api({ method: "GET", path: `${apiEndpoint(id)}/deliveries${query.size ? `?${query}` : ""}` });
    if (deliveries.status !== 200) return kit.refusedBy(deliveries, "The deliveries could not be read", session);
    const props = {
      session,
      endpoint: endpoint.body.data as EndpointView,
      eventTypes: await eventTypes(api),
      deliveries: deliveries.body.data,
      nextCursor: deliveries.body.nextCursor ?? null,
    };
    return page(<EndpointPage {...props} {...extra} />, status);
  };

  /** A page about one endpoint that only the given write may open: the endpoint read, or the refusal. */
  const withEndpoint = (
    request: Request,
    id: string,
    allowed: (session: PageSession) => boolean,
    render: (api: Api, session: PageSession, endpoint: EndpointView) => Response | Promise<Response>,
  ) =>
    kit.signedIn(request, async (api, session) => {
      if (!allowed(session)) return kit.refused(403, "Your role may not do this to a webhook endpoint.", session);
      const endpoint = await readEndpoint(api, id);
      if (endpoint.status !== 200) return kit.refusedBy(endpoint, "The endpoint could not be read", session);
      return render(api, session, endpoint.body.data);
    });

  const mayReveal = (s: PageSession) => s.may("GET", `${API}/{id}/secret`);
  const mayRotate = (s: PageSession) => s.may("POST", `${API}/{id}/rotate-secret`);
  const mayDelete = (s: PageSession) => s.may("DELETE", `${API}/{id}`);

  return (
    app
      .get(PATH, ({ request, query }) => kit.signedIn(request, (api, session) => listPage(api, session, query.cursor, { done: query.done })))
      .post(PATH, ({ request, body }) =>
        kit.signedIn(request, async (api, session) => {
          const form = formOf(body);
          const input = { url: form.url ?? "", description: given(form.description), eventTypes: many(form.eventTypes) };
          const answer = await kit.send(api, form, { method: "POST", path: API, body: input });
          if (answer.status === 201) return redirect(`${endpointPath(answer.body.data.id)}?done=created`);
          if (answer.status === 403) return kit.refusedBy(answer, "Refused", session);
          return listPage(api, session, undefined, { form: stateOf(form, answer) }, answer.status);
        }),
      )
      // A delivery (before /:id, which would take "deliveries" for an endpoint's id).
      .get(`${PATH}/deliveries/:id`, ({ request, params, query }) =>
        kit.signedIn(request, async (api, session) => {
          const answer = await api({ method: "GET", path: `/dashboard/webhooks/deliveries/${encodeURIComponent(params.id)}` });
          if (answer.status !== 200) return kit.refusedBy(answer, "The delivery could not be read", session);
          return page(<DeliveryPage session={session} delivery={answer.body.data} done={query.done} />);
        }),
      )
      .post(`${PATH}/deliveries/:id/replay`, ({ request, params, body }) =>
        kit.signedIn(request, async (api, session) => {
          const path = `/dashboard/webhooks/deliveries/${encodeURIComponent(params.id)}/replay`;
          const answer = await kit.send(api, formOf(body), { method: "POST", path });
          if (answer.status !== 202) return kit.refusedBy(answer, "The delivery could not be replayed", session);
          return redirect(`${endpointPath(answer.body.data.endpointId)}?done=replayed`);
        }),
      )
      .get(`${PATH}/:id`, ({ request, params, query }) =>
        kit.signedIn(request, (api, session) =>
          endpointPage(api, session, params.id, query.cursor, { done: query.done, status: given(query.status) }),
        ),
      )
      // The edit form: what it shows is what it sends (an empty description clears it; no box checked: every type).
      .post(`${PATH}/:id`, ({ request, params, body }) =>
        kit.signedIn(request, async (api, session) => {
          const form = formOf(body);
          const patch = {
            url: form.url ?? "",
            description: form.description ?? "",
            eventTypes: many(form.eventTypes),
            enabled: form.enabled === "on",
          };
          const answer = await kit.send(api, form, { method: "PATCH", path: apiEndpoint(params.id), body: patch });
          if (answer.status === 200) return redirect(`${endpointPath(params.id)}?done=updated`);
          if (answer.status === 403 || answer.status === 404) return kit.refusedBy(answer, "Refused", session);
          return endpointPage(api, session, params.id, undefined, { edit: stateOf(form, answer) }, answer.status);
        }),
      )
      .post(`${PATH}/:id/test`, ({ request, params, body }) =>
        kit.signedIn(request, async (api, session) => {
          const answer = await kit.send(api, formOf(body), { method: "POST", path: `${apiEndpoint(params.id)}/test` });
          if (answer.status === 202) return redirect(`${endpointPath(params.id)}?done=test`);
          if (answer.status === 409) return endpointPage(api, session, params.id, undefined, { error: answer.body?.error ?? null }, 409);
          return kit.refusedBy(answer, "The test event could not be sent", session);
        }),
      )
      .post(`${PATH}/:id/replay`, ({ request, params, body }) =>
        kit.signedIn(request, async (api, session) => {
          const form = formOf(body);
          const answer = await kit.send(api, form, {
            method: "POST",
            path: `${apiEndpoint(params.id)}/replay`,
            body: { messageId: form.messageId ?? "" },
          });
          if (answer.status === 202) return redirect(`${endpointPath(params.id)}?done=replayed`);
          if (answer.status === 403) return kit.refusedBy(answer, "Refused", session);
          return endpointPage(api, session, params.id, undefined, { replay: stateOf(form, answer) }, answer.status);
        }),
      )
      .get(`${PATH}/:id/secret`, ({ request, params }) =>
        withEndpoint(request, params.id, mayReveal, (_api, session, endpoint) => page(<RevealPage session={session} endpoint={endpoint} />)),
      )
      .post(`${PATH}/:id/secret`, ({ request, params, body }) =>
        withEndpoint(request, params.id, mayReveal, async (api, session, endpoint) => {
          // The API reveals with a GET (a read, no CSRF token); this page shows it only on a post, so it checks the token.
          if (!csrfMatches(formOf(body), session))
            return kit.refused(403, "This form's CSRF token is missing or wrong: reload the page and try again.", session);
          const answer = await api({ method: "GET", path: `${apiEndpoint(params.id)}/secret` });
          if (answer.status !== 200) return kit.refusedBy(answer, "The secret could not be read", session);
          return page(<SecretPage session={session} endpoint={endpoint} secret={answer.body.data} rotated={false} />);
        }),
      )
      .get(`${PATH}/:id/rotate`, ({ request, params }) =>
        withEndpoint(request, params.id, mayRotate, (_api, session, endpoint) => page(<RotatePage session={session} endpoint={endpoint} />)),
      )
      .post(`${PATH}/:id/rotate`, ({ request, params, body }) =>
        kit.signedIn(request, async (api, session) => {
          const form = formOf(body);
          const input = { overlapSeconds: integer(given(form.overlapSeconds)) };
          const answer = await kit.send(api, form, { method: "POST", path: `${apiEndpoint(params.id)}/rotate-secret`, body: input });
          if (answer.status === 200) {
            // The new secret is this answer's; the previous one, while the overlap lasts, is the reveal's.
            const { secret, previousSecretExpiresAt, ...endpoint } = answer.body.data;
            const shown = { secret, previousSecret: null, previousSecretExpiresAt };
            return page(<SecretPage session={session} endpoint={{ ...endpoint, previousSecretExpiresAt }} secret={shown} rotated />);
          }
          if (answer.status !== 400) return kit.refusedBy(answer, "The secret could not be rotated", session);
          const endpoint = await readEndpoint(api, params.id);
          if (endpoint.status !== 200) return kit.refusedBy(endpoint, "The endpoint could not be read", session);
          return page(<RotatePage session={session} endpoint={endpoint.body.data} form={stateOf(form, answer)} />, 400);
        }),
      )
      .get(`${PATH}/:id/delete`, ({ request, params }) =>
        withEndpoint(request, params.id, mayDelete, (_api, session, endpoint) => page(<DeletePage session={session} endpoint={endpoint} />)),
      )
      .post(`${PATH}/:id/delete`, ({ request, params, body }) =>
        kit.signedIn(request, async (api, session) => {
          const answer = await kit.send(api, formOf(body), { method: "DELETE", path: apiEndpoint(params.id) });
          if (answer.status !== 200) return kit.refusedBy(answer, "The endpoint could not be deleted", session);
          return redirect(`${PATH}?done=deleted`);
        }),
      )
  );
};
