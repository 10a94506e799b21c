/**
 * The subscriptions section's routes: the list and one subscription; cancel, resume and revoke its mandate after a
 * confirmation page; a plan change previewed (the API's quote) and then applied with that quote's id.
 */
import { fieldErrors, readAll, type Api, type ApiAnswer } from "../../api";
import { formOf, given, type Form, type Section } from "../../kit";
import { page, redirect } from "../../response";
import type { PageSession } from "../../session";
import { CancelPage, ResumePage, RevokeMandatePage } from "./confirm";
import { SubscriptionDetailPage, SubscriptionsPage } from "./page";
import { CHANGE_FIELDS, ChoosePlanPage, QuotePage } from "./plan-change";
import { detailPath, PATH, type FormState, type MandateView, type PlanOption, type SubscriptionDetailView } from "./answers";

const apiPath = (id: string) => `/dashboard/subscriptions/${encodeURIComponent(id)}`;
const companyPlanPath = (s: SubscriptionDetailView) => `/dashboard/companies/${encodeURIComponent(s.companyId)}/plan`;
/**
 * A refused form as it comes back: the API's `details` beside the fields the form has (`shown`), and its message
 * above the form whenever a detail names something else (a 409's `details.status`), so no refusal goes unsaid.
 */
const stateOf = (form: Form, answer: ApiAnswer, shown: readonly string[]): FormState => {
  const { form: error, fields } = fieldErrors(answer);
  const beside = Object.fromEntries(Object.entries(fields).filter(([name]) => shown.includes(name)));
  const elsewhere = Object.keys(fields).length > Object.keys(beside).length;
  const message =
    error ?? (elsewhere ? (typeof answer.body?.error === "string" ? answer.body.error : `The service answered ${answer.status}`) : null);
  return { values: form as Record<string, string>, error: message, fields: beside };
};

/** The plan change's terms as the form gave them: empty means "the API's default". */
const changeOf = (form: Form): Record<string, string> => {
  const terms: Record<string, string> = {};
  for (const name of CHANGE_FIELDS) {
    const value = given(form[name]);
    if (value !== undefined) terms[name] = value;
  }
  return terms;
};

export const subscriptionPages: Section = (kit) => (app) => {
  /** The subscription as the API answers it, or the refusal page to return. */
  const read = async (api: Api, session: PageSession, id: string): Promise<SubscriptionDetailView | Response> => {
    const answer = await api({ method: "GET", path: apiPath(id) });
    if (answer.status !== 200) return kit.refusedBy(answer, "The subscription could not be read", session);
    return answer.body.data as SubscriptionDetailView;
  };
  /** A page about one subscription: `render` with it, or the API's refusal. */
  const withSubscription = (
    request: Request,
    id: string,
    render: (api: Api, session: PageSession, s: SubscriptionDetailView) => Response | Promise<Response>,
  ) =>
    kit.signedIn(request, async (api, session) => {
      const s = await read(api, session, id);
      return s instanceof Response ? s : render(api, session, s);
    });
  /** The catalog's plans to choose from, when this session may read them (else the plan id is typed). */
  const plans = async (api: Api, session: PageSession): Promise<PlanOption[] | null> => {
    if (!session.may("GET", "/dashboard/plans")) return null;
    const answer = await readAll(api, "/dashboard/plans?kind=plan");
    return answer.status === 200 ? (answer.body.data as PlanOption[]) : null;
  };

  return app
    .get(PATH, ({ request, query }) =>
      kit.signedIn(request, async (api, session) => {
        const status = given(query.status);
        const params = new URLSearchParams();
        if (status) params.set("status", status);
        const companyId = given(query.companyId);
        if (companyId) params.set("companyId", companyId);
        if (given(query.cursor)) params.set("cursor", query.cursor!);
        const list = await api({ method: "GET", path: `/dashboard/subscriptions${params.size ? `?${params}` : ""}` });
        if (list.status !== 200) return kit.refusedBy(list, "The subscriptions could not be read", session);
        return page(
          <SubscriptionsPage
            session={session}
            subscriptions={list.body.data}
            nextCursor={list.body.nextCursor ?? null}
            status={status}
            companyId={companyId}
          />,
        );
      }),
    )
    .get(`${PATH}/:id`, ({ request, params, query }) =>
      withSubscription(request, params.id, async (api, session, s) => {
        let mandate: MandateView | null = null;
        if (s.mandateId) {
          const status = await api({ method: "GET", path: `/mandates/${encodeURIComponent(s.mandateId)}/status` });
          // The mandate's own route; the detail's copy when this session may not read it there.
          mandate = status.status === 200 ? (status.body as MandateView) : s.mandate;
        }
        return page(<SubscriptionDetailPage session={session} subscription={s} mandate={mandate} done={query.done} />);
      }),
    )
    .get(`${PATH}/:id/cancel`, ({ request, params }) =>
      withSubscription(request, params.id, (_api, session, s) => page(<CancelPage session={session} subscription={s} />)),
    )
    .post(`${PATH}/:id/cancel`, ({ request, params, body }) =>
      withSubscription(request, params.id, async (api, session, s) => {
        const form = formOf(body);
        const atPeriodEnd = form.when !== "now";
        const answer = await kit.send(api, form, {
          method: "POST",
          path: `${apiPath(s.id)}/cancel`,
          body: { atPeriodEnd, reason: given(form.reason) },
        });
        if (answer.status === 200) return redirect(`${detailPath(s.id)}?done=${atPeriodEnd ? "canceled-at-period-end" : "canceled"}`);
        return page(<CancelPage session={session} subscription={s} form={stateOf(form, answer, ["reason"])} />, answer.status);
      }),
    )
    .get(`${PATH}/:id/resume`, ({ request, params }) =>
      withSubscription(request, params.id, (_api, session, s) => page(<ResumePage session={session} subscription={s} />)),
    )
    .post(`${PATH}/:id/resume`, ({ request, params, body }) =>
      withSubscription(request, params.id, async (api, session, s) => {
        const form = formOf(body);
        const answer = await kit.send(api, form, { method: "POST", path: `${apiPath(s.id)}/resume` });
        if (answer.status === 200) return redirect(`${detailPath(s.id)}?done=resumed`);
        return page(<ResumePage session={session} subscription={s} form={stateOf(form, answer, [])} />, answer.status);
      }),
    )
    .get(`${PATH}/:id/revoke-mandate`, ({ request, params }) =>
      withSubscription(request, params.id, (_api, session, s) =>
        s.mandateId
          ? page(<RevokeMandatePage session={session} subscription={s} />)
          : kit.refused(404, "This subscription has no mandate yet", session),
      ),
    )
    .post(`${PATH}/:id/revoke-mandate`, ({ request, params, body }) =>
      withSubscription(request, params.id, async (api, session, s) => {
        if (!s.mandateId) return kit.refused(404, "This subscription has no mandate yet", session);
        const form = formOf(body);
        const input = { mandateId: s.mandateId, reason: given(form.reason) };
        const answer = await kit.send(api, form, { method: "POST", path: "/mandates/revoke", body: input });
        if (answer.status === 200) return redirect(`${detailPath(s.id)}?done=mandate-revoked`);
        return page(<RevokeMandatePage session={session} subscription={s} form={stateOf(form, answer, ["reason"])} />, answer.status);
      }),
    )
    .get(`${PATH}/:id/plan`, ({ request, params }) =>
      withSubscription(request, params.id, async (api, session, s) =>
        page(<ChoosePlanPage session={session} subscription={s} plans={await plans(api, session)} />),
      ),
    )
    .post(`${PATH}/:id/plan/preview`, ({ request, params, body }) =>
      withSubscription(request, params.id, async (api, session, s) => {
        const form = formOf(body);
        const asked = changeOf(form);
        const answer = await kit.send(api, form, { method: "POST", path: `${companyPlanPath(s)}/preview`, body: asked });
        const catalog = await plans(api, session);
        if (answer.status !== 200)
          return page(
            <ChoosePlanPage session={session} subscription={s} plans={catalog} form={stateOf(form, answer, CHANGE_FIELDS)} />,
            answer.status,
          );
        const quote = answer.body.data;
        const planName = catalog?.find((p) => p.id === quote.planId)?.name ?? null;
        return page(<QuotePage session={session} subscription={s} quote={quote} asked={asked} planName={planName} />);
      }),
    )
    .post(`${PATH}/:id/plan`, ({ request, params, body }) =>
      withSubscription(request, params.id, async (api, session, s) => {
        const form = formOf(body);
        // The quote's id binds the change to the amounts shown: the API charges exactly them, or refuses.
        const input = { ...changeOf(form), quoteId: given(form.quoteId) };
        const answer = await kit.send(api, form, { method: "POST", path: companyPlanPath(s), body: input });
        if (answer.status === 200)
          return redirect(`${detailPath(s.id)}?done=${answer.body.data.effective === "period_end" ? "plan-scheduled" : "plan-changed"}`);
        const catalog = await plans(api, session);
        return page(<ChoosePlanPage session={session} subscription={s} plans={catalog} form={stateOf(form, answer, CHANGE_FIELDS)} />, answer.status);
      }),
    );
};
