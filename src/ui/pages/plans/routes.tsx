/**
 * The plans section's routes: the list and create form, a plan's page with its prices, entitlements and edit
 * form, and the confirmation pages before a removal. Every read and write is the API's
 * (/api/v1/dashboard/plans…, docs/catalog.md).
 */
import { readAll, type Api, type ApiAnswer } from "../../api";
import { type Form, formOf, given, type PageKit, type Section } from "../../kit";
import { page, redirect } from "../../response";
import type { PageSession } from "../../session";
import { type FeatureChoice, type PlanForm, PlanDetailPage, RemoveEntitlementPage, RemovePlanPage, RemovePricePage } from "./detail";
import { PATH, type PlanFilter, PlansPage, type PlansProps, type PlanView } from "./page";
import { integer, refusal } from "../../forms";
import { onchainIds, READ_ONLY } from "./shared";

const enc = encodeURIComponent;
/** The API's names for the create form's price fields. */
const CREATE_FIELDS = {
  "prices.billingPeriod": "priceBillingPeriod",
  "prices.amount": "priceAmount",
  "prices.currency": "priceCurrency",
  "prices[0].billingPeriod": "priceBillingPeriod",
  "prices[0].amount": "priceAmount",
  "prices[0].currency": "priceCurrency",
  prices: "priceAmount",
  kind: "planKind",
  onchainPlanIds: "onchainPlanIds",
};

const PRICE_FIELDS = { amount: "priceAmount", currency: "priceCurrency", "params.period": "priceBillingPeriod", period: "priceBillingPeriod" };
const ENTITLEMENT_FIELDS = {
  kind: "entKind",
  enabled: "entEnabled",
  limit: "entLimit",
  period: "entPeriod",
  creditsPerUse: "entCreditsPerUse",
  traitKey: "entTraitKey",
  traitOperator: "entTraitOperator",
  traitValue: "entTraitValue",
  "params.feature": "entFeature",
};

/** A page's filter from its query: a kind the API knows, archived ones or not. */
const filterOf = (query: Record<string, string | undefined>): PlanFilter => ({
  kind: query.kind === "plan" || query.kind === "add_on" ? query.kind : undefined,
  includeArchived: query.includeArchived === "true" || query.includeArchived === "on",
});

/** The features a plan's entitlement form offers: the catalog's, every page (none when they cannot be read). */
async function featureChoices(api: Api): Promise<FeatureChoice[]> {
  const answer = await readAll(api, "/dashboard/features");
  return answer.status === 200 ? (answer.body.data as FeatureChoice[]) : [];
}

export const planPages: Section = (kit: PageKit) => (app) => {
  const listPage = async (api: Api, session: PageSession, filter: PlanFilter, cursor?: string, extra: Partial<PlansProps> = {}, status = 200) => {
    const q = new URLSearchParams();
    if (filter.kind) q.set("kind", filter.kind);
    if (filter.includeArchived) q.set("includeArchived", "true");
    if (cursor) q.set("cursor", cursor);
    const list = await api({ method: "GET", path: `/dashboard/plans?${q}` });
    if (list.status !== 200) return kit.refusedBy(list, "The plans could not be read", session);
    return page(<PlansPage session={session} plans={list.body.data} nextCursor={list.body.nextCursor ?? null} filter={filter} {...extra} />, status);
  };
  const readPlan = (api: Api, id: string) => api({ method: "GET", path: `/dashboard/plans/${enc(id)}` });
  const detailPage = async (
    api: Api,
    session: PageSession,
    id: string,
    extra: { form?: PlanForm; done?: string; change?: string } = {},
    status = 200,
  ) => {
    const answer = await readPlan(api, id);
    if (answer.status !== 200) return kit.refusedBy(answer, "The plan could not be read", session);
    const features = session.may("PUT", "/dashboard/plans/{id}/entitlements/{feature}") ? await featureChoices(api) : [];
    return page(<PlanDetailPage session={session} plan={answer.body.data} features={features} {...extra} />, status);
  };
  /** After a write on a plan: its page with the notice, or the form again with the API's refusal. */
  const afterWrite = (
    api: Api,
    session: PageSession,
    id: string,
    answer: ApiAnswer,
    form: Form,
    which: PlanForm["which"],
    done: string,
    rename: Record<string, string>,
  ) => {
    if (answer.status === 200) return redirect(`${PATH}/${enc(id)}?done=${done}`);
    if (answer.status === 403 || answer.status === 404) return kit.refusedBy(answer, "Refused", session);
    return detailPage(api, session, id, { form: { which, ...refusal(answer, form, rename, which === "entitlement") } }, answer.status);
  };

  return app
    .get(PATH, ({ request, query }) =>
      kit.signedIn(request, (api, session) => listPage(api, session, filterOf(query), query.cursor, { done: query.done })),
    )
    .post(PATH, ({ request, body }) =>
      kit.signedIn(request, async (api, session) => {
        const form = formOf(body);
        const amount = given(form.priceAmount);
        const input = {
          name: form.name ?? "",
          kind: form.planKind ?? "plan",
          tier: given(form.tier),
          description: given(form.description),
          trialDays: integer(form.trialDays),
          prices: amount ? [{ billingPeriod: form.priceBillingPeriod ?? "monthly", amount, currency: form.priceCurrency ?? "" }] : undefined,
          onchainPlanIds: given(form.onchainPlanIds) ? onchainIds(form.onchainPlanIds) : undefined,
        };
        const answer = await kit.send(api, form, { method: "POST", path: PATH, body: input });
        if (answer.status === 201) return redirect(`${PATH}/${enc(answer.body.data.id)}?done=created`);
        if (answer.status === 403) return kit.refusedBy(answer, "Refused", session);
        return listPage(api, session, filterOf({}), undefined, { form: refusal(answer, form, CREATE_FIELDS) }, answer.status);
      }),
    )
    .get(`${PATH}/:id`, ({ request, params, query }) =>
      kit.signedIn(request, (api, session) => detailPage(api, session, params.id, { done: query.done, change: query.change })),
    )
    .post(`${PATH}/:id/edit`, ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const form = formOf(body);
        const current = await readPlan(api, params.id);
        if (current.status !== 200) return kit.refusedBy(current, "The plan could not be read", session);
        const plan = current.body.data as PlanView;
        // Only what changed: an unchanged kind is not a change of kind (refused while companies use the plan).
        const patch: Record<string, unknown> = {};
        if ((form.name ?? "") !== plan.name) patch.name = form.name ?? "";
        if (form.planKind !== undefined && form.planKind !== plan.kind) patch.kind = form.planKind;
        if ((form.tier ?? "") !== plan.tier) patch.tier = form.tier ?? "";
        const description = given(form.description) ?? null;
        if (description !== plan.description) patch.description = description;
        if ((form.trialDays ?? "") !== String(plan.trialDays)) patch.trialDays = integer(form.trialDays) ?? "";
        // Per network: a new or changed id, or null for one no longer listed.
        const ids = onchainIds(form.onchainPlanIds);
        const idChanges: Record<string, string | null> = {};
        for (const [network, id] of Object.entries(ids)) if (plan.onchainPlanIds[network] !== id) idChanges[network] = id;
        for (const network of Object.keys(plan.onchainPlanIds)) if (!(network in ids)) idChanges[network] = null;
        if (Object.keys(idChanges).length) patch.onchainPlanIds = idChanges;
        const answer = await kit.send(api, form, { method: "PATCH", path: `/dashboard/plans/${enc(params.id)}`, body: patch });
        return afterWrite(api, session, params.id, answer, form, "edit", "updated", { kind: "planKind", onchainPlanIds: "onchainPlanIds" });
      }),
    )
    .post(`${PATH}/:id/restore`, ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const answer = await kit.send(api, formOf(body), { method: "PATCH", path: `/dashboard/plans/${enc(params.id)}`, body: { archived: false } });
        if (answer.status !== 200) return kit.refusedBy(answer, "The plan could not be restored", session);
        return redirect(`${PATH}/${enc(params.id)}?done=restored`);
      }),
    )
    .post(`${PATH}/:id/prices`, ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const form = formOf(body);
        const period = form.priceBillingPeriod === "yearly" ? "yearly" : "monthly";
        const input = { amount: form.priceAmount ?? "", currency: form.priceCurrency ?? "" };
        const answer = await kit.send(api, form, { method: "PUT", path: `/dashboard/plans/${enc(params.id)}/prices/${period}`, body: input });
        return afterWrite(api, session, params.id, answer, form, "price", "price-set", PRICE_FIELDS);
      }),
    )
    .post(`${PATH}/:id/entitlements`, ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const form = formOf(body);
        const kind = form.entKind ?? "";
        const input = {
          kind,
          enabled: form.entEnabled === "on",
          limit: given(form.entLimit),
          period: given(form.entPeriod),
          creditsPerUse: given(form.entCreditsPerUse),
          traitKey: given(form.entTraitKey),
          traitOperator: given(form.entTraitOperator),
          // A trait rule may compare with an empty value; other kinds take none.
          traitValue: kind === "trait" ? (form.entTraitValue ?? "") : given(form.entTraitValue),
        };
        const feature = given(form.entFeature);
        if (!feature) {
          const missing = { status: 400, body: { error: "Validation failed", details: { entFeature: "Choose a feature" } }, setCookie: null };
          return afterWrite(api, session, params.id, missing, form, "entitlement", "", {});
        }
        const path = `/dashboard/plans/${enc(params.id)}/entitlements/${enc(feature)}`;
        const answer = await kit.send(api, form, { method: "PUT", path, body: input });
        return afterWrite(api, session, params.id, answer, form, "entitlement", "entitlement-set", ENTITLEMENT_FIELDS);
      }),
    )
    .get(`${PATH}/:id/remove`, ({ request, params }) =>
      kit.signedIn(request, async (api, session) => {
        if (!session.may("DELETE", "/dashboard/plans/{id}")) return kit.refused(403, READ_ONLY, session);
        const answer = await readPlan(api, params.id);
        if (answer.status !== 200) return kit.refusedBy(answer, "The plan could not be read", session);
        return page(<RemovePlanPage session={session} plan={answer.body.data} />);
      }),
    )
    .post(`${PATH}/:id/remove`, ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const answer = await kit.send(api, formOf(body), { method: "DELETE", path: `/dashboard/plans/${enc(params.id)}` });
        if (answer.status !== 200) return kit.refusedBy(answer, "The plan could not be removed", session);
        // The API says which happened: an archived plan still has a page; a deleted one is gone.
        if (answer.body.data.outcome === "archived") return redirect(`${PATH}/${enc(params.id)}?done=archived`);
        return redirect(`${PATH}?done=deleted`);
      }),
    )
    .get(`${PATH}/:id/prices/:period/remove`, ({ request, params }) =>
      kit.signedIn(request, async (api, session) => {
        if (!session.may("DELETE", "/dashboard/plans/{id}/prices/{period}")) return kit.refused(403, READ_ONLY, session);
        const answer = await readPlan(api, params.id);
        if (answer.status !== 200) return kit.refusedBy(answer, "The plan could not be read", session);
        const plan = answer.body.data as PlanView;
        const price = plan.prices.find((p) => p.billingPeriod === params.period);
        if (!price) return kit.refused(404, "The plan has no price for that period", session);
        return page(<RemovePricePage session={session} plan={plan} price={price} />);
      }),
    )
    .post(`${PATH}/:id/prices/:period/remove`, ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const path = `/dashboard/plans/${enc(params.id)}/prices/${enc(params.period)}`;
        const answer = await kit.send(api, formOf(body), { method: "DELETE", path });
        if (answer.status !== 200) return kit.refusedBy(answer, "The price could not be removed", session);
        return redirect(`${PATH}/${enc(params.id)}?done=price-removed`);
      }),
    )
    .get(`${PATH}/:id/entitlements/:feature/remove`, ({ request, params }) =>
      kit.signedIn(request, async (api, session) => {
        if (!session.may("DELETE", "/dashboard/plans/{id}/entitlements/{feature}")) return kit.refused(403, READ_ONLY, session);
        const answer = await readPlan(api, params.id);
        if (answer.status !== 200) return kit.refusedBy(answer, "The plan could not be read", session);
        const plan = answer.body.data as PlanView;
        const entitlement = plan.entitlements?.find((e) => e.featureKey === params.feature || e.featureId === params.feature);
        if (!entitlement) return kit.refused(404, "The plan has no entitlement for that feature", session);
        return page(<RemoveEntitlementPage session={session} plan={plan} entitlement={entitlement} />);
      }),
    )
    .post(`${PATH}/:id/entitlements/:feature/remove`, ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const path = `/dashboard/plans/${enc(params.id)}/entitlements/${enc(params.feature)}`;
        const answer = await kit.send(api, formOf(body), { method: "DELETE", path });
        if (answer.status !== 200) return kit.refusedBy(answer, "The entitlement could not be removed", session);
        return redirect(`${PATH}/${enc(params.id)}?done=entitlement-removed`);
      }),
    );
};
