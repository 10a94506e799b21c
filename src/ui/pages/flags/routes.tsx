/**
 * The flags section's routes: the matrix of boolean features per plan (switched through the plan's entitlement
 * routes), the company lookup, and one company's answer with its override controls (the company entitlement and
 * override routes). Every write answers with a redirect to the page that shows its result, with a notice.
 */
import { fieldErrors, readAll, type Api, type ApiAnswer } from "../../api";
import { formOf, type Form, type PageKit, type Section } from "../../kit";
import { page, redirect } from "../../response";
import type { PageSession } from "../../session";
import { planNamesOf } from "../customers/routes";
import type { EntitlementsView } from "../customers/detail";
import type { CompanyView } from "../customers/page";
import { companyFlagsHref } from "../customers/parts";
import { CompanyFlagsPage, companyName, RemoveOverridePage, type CompanyFlagsProps, type RuleForm } from "./company";
import { FlagsPage, PATH, type FlagPlan } from "./page";

const enc = encodeURIComponent;
const RULE_FIELDS = ["feature", "traitKey", "traitOperator", "traitValue"];

/** The notice of a write just done (`?done=`), in words. */
function noticeOf(query: Record<string, string | undefined>, names: { plan?: string; company?: string }): string | null {
  const feature = query.feature ?? "";
  switch (query.done) {
    case "plan-on":
      return `${feature} turned on for plan ${names.plan ?? query.plan}.`;
    case "plan-off":
      return `${feature} taken off plan ${names.plan ?? query.plan}.`;
    case "on":
      return `Override saved: ${feature} is now on for ${names.company}.`;
    case "off":
      return `Override saved: ${feature} is now off for ${names.company}.`;
    case "rule":
      return `Override saved: ${feature} now follows a trait rule for ${names.company}.`;
    case "removed":
      return `Override removed: ${feature} follows the plan of ${names.company} again.`;
    default:
      return null;
  }
}

async function plansWithEntitlements(kit: PageKit, api: Api, session: PageSession): Promise<FlagPlan[] | Response> {
  const list = await readAll(api, "/dashboard/plans");
  if (list.status !== 200) return kit.refusedBy(list, "The plans could not be read", session);
  const details = await Promise.all((list.body.data as { id: string }[]).map((p) => api({ method: "GET", path: `/dashboard/plans/${enc(p.id)}` })));
  const refused = details.find((d) => d.status !== 200);
  if (refused) return kit.refusedBy(refused, "A plan could not be read", session);
  return details.map((d) => ({ ...d.body.data, entitlements: d.body.data.entitlements ?? [] }));
}

export const flagPages: Section = (kit) => (app) => {
  /** The company and its answer, or the refusal to show. */
  const companyOf = async (api: Api, session: PageSession, ref: string) => {
    const found = await api({ method: "GET", path: `/dashboard/companies/${enc(ref)}` });
    if (found.status !== 200) return kit.refusedBy(found, "The company could not be read", session);
    const company = found.body.data as CompanyView;
    const answer = await api({ method: "GET", path: `/dashboard/companies/${enc(company.id)}/entitlements` });
    if (answer.status !== 200) return kit.refusedBy(answer, "What the company gets could not be read", session);
    return { company, entitlements: answer.body.data as EntitlementsView };
  };
  const companyPage = async (api: Api, session: PageSession, ref: string, extra: Partial<CompanyFlagsProps> = {}, status = 200) => {
    const loaded = await companyOf(api, session, ref);
    if (loaded instanceof Response) return loaded;
    const planNames = await planNamesOf(api, session);
    return page(<CompanyFlagsPage session={session} planNames={planNames} {...loaded} {...extra} />, status);
  };
  /** After an override write: the company's flags with the notice, or its refusal above the table. */
  const overrideDone = async (api: Api, session: PageSession, ref: string, answer: ApiAnswer, done: string, feature: string) => {
    if (answer.status === 200) return redirect(`${companyFlagsHref(ref)}?done=${done}&feature=${enc(feature)}`);
    if (answer.status === 403) return kit.refusedBy(answer, "Refused", session);
    return companyPage(api, session, ref, { error: fieldErrors(answer).form ?? answer.body?.error ?? "Refused" }, answer.status);
  };
  return app
    .get(PATH, ({ request, query }) =>
      kit.signedIn(request, async (api, session) => {
        const companySearch = query.company ?? "";
        const [features, plans, found] = await Promise.all([
          readAll(api, "/dashboard/features"),
          plansWithEntitlements(kit, api, session),
          companySearch ? api({ method: "GET", path: `/companies?search=${enc(companySearch)}` }) : null,
        ]);
        if (features.status !== 200) return kit.refusedBy(features, "The features could not be read", session);
        if (plans instanceof Response) return plans;
        if (found && found.status !== 200) return kit.refusedBy(found, "The companies could not be read", session);
        const notice = noticeOf(query, { plan: plans.find((p) => p.id === query.plan)?.name });
        return page(
          <FlagsPage
            session={session}
            features={(features.body.data as { archived?: boolean }[]).filter((f) => !f.archived) as never}
            plans={plans}
            companySearch={companySearch}
            companies={found ? found.body.data : null}
            notice={notice}
          />,
        );
      }),
    )
    .post(`${PATH}/plans/:plan/:feature`, ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const form = formOf(body);
        const path = `/dashboard/plans/${enc(params.plan)}/entitlements/${enc(params.feature)}`;
        const on = form.to === "on";
        const answer = on
          ? await kit.send(api, form, { method: "PUT", path, body: { kind: "boolean", enabled: true } })
          : await kit.send(api, form, { method: "DELETE", path });
        if (answer.status !== 200) return kit.refusedBy(answer, "The flag could not be switched", session);
        return redirect(`${PATH}?done=${on ? "plan-on" : "plan-off"}&feature=${enc(params.feature)}&plan=${enc(params.plan)}`);
      }),
    )
    .get(`${PATH}/companies/:id`, ({ request, params, query }) =>
      kit.signedIn(request, async (api, session) => {
        const loaded = await companyOf(api, session, params.id);
        if (loaded instanceof Response) return loaded;
        const planNames = await planNamesOf(api, session);
        const notice = noticeOf(query, { company: companyName(loaded.company) });
        return page(<CompanyFlagsPage session={session} planNames={planNames} notice={notice} {...loaded} />);
      }),
    )
    .post(`${PATH}/companies/:id/overrides/:feature`, ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const form = formOf(body);
        const on = form.to === "on";
        const answer = await kit.send(api, form, {
          method: "PUT",
          path: `/dashboard/companies/${enc(params.id)}/overrides/${enc(params.feature)}`,
          body: { kind: "boolean", enabled: on },
        });
        return overrideDone(api, session, params.id, answer, on ? "on" : "off", params.feature);
      }),
    )
    .post(`${PATH}/companies/:id/rules`, ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const form = formOf(body);
        const feature = form.feature ?? "";
        const answer = await kit.send(api, form, {
          method: "PUT",
          path: `/dashboard/companies/${enc(params.id)}/overrides/${enc(feature || "-")}`,
          body: { kind: "trait", traitKey: form.traitKey ?? "", traitOperator: form.traitOperator ?? "", traitValue: form.traitValue ?? "" },
        });
        if (answer.status === 200) return redirect(`${companyFlagsHref(params.id)}?done=rule&feature=${enc(feature)}`);
        if (answer.status === 403) return kit.refusedBy(answer, "Refused", session);
        return companyPage(api, session, params.id, { rule: ruleForm(form, answer) }, answer.status);
      }),
    )
    .get(`${PATH}/companies/:id/overrides/:feature/remove`, ({ request, params }) =>
      kit.signedIn(request, async (api, session) => {
        const loaded = await companyOf(api, session, params.id);
        if (loaded instanceof Response) return loaded;
        const override = loaded.entitlements.overrides.find((o) => o.featureKey === params.feature || o.featureId === params.feature);
        if (!override) return kit.refused(404, `This company has no override of ${params.feature}`, session);
        return page(<RemoveOverridePage session={session} company={loaded.company} override={override} />);
      }),
    )
    .post(`${PATH}/companies/:id/overrides/:feature/remove`, ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const answer = await kit.send(api, formOf(body), {
          method: "DELETE",
          path: `/dashboard/companies/${enc(params.id)}/overrides/${enc(params.feature)}`,
        });
        return overrideDone(api, session, params.id, answer, "removed", params.feature);
      }),
    );
};

/** A refused trait rule: the API's messages beside the fields they name, any other above the form, what was typed kept. */
function ruleForm(form: Form, answer: ApiAnswer): RuleForm {
  const { form: error, fields } = fieldErrors(answer);
  const other = Object.entries(fields).filter(([name]) => !RULE_FIELDS.includes(name));
  const shown = Object.fromEntries(Object.entries(fields).filter(([name]) => RULE_FIELDS.includes(name)));
  const message = [error, ...other.map(([, text]) => text)].filter(Boolean).join(" ") || null;
  return { values: form as Record<string, string>, error: message, fields: shown };
}
