/**
 * The features section's routes: the catalog's features a page at a time and the create form; a feature's page
 * with its edit form; archive or delete after a confirmation, and restore.
 */
import { fieldErrors, type Api } from "../../api";
import { formOf, given, type Section } from "../../kit";
import { page, redirect } from "../../response";
import type { PageSession } from "../../session";
import { type FormState, refusal } from "../../forms";
import { READ_ONLY } from "../plans/shared";
import { FeaturePage, featureValues, RemoveFeaturePage } from "./detail";
import { FeaturesPage, type FeaturesProps, type FeatureView, PATH } from "./page";

const enc = encodeURIComponent;

export const featurePages: Section = (kit) => (app) => {
  const featuresPage = async (
    api: Api,
    session: PageSession,
    cursor: string | undefined,
    extra: Partial<FeaturesProps> = {},
    status = 200,
    includeArchived = false,
  ) => {
    const q = new URLSearchParams();
    if (cursor) q.set("cursor", cursor);
    if (includeArchived) q.set("includeArchived", "true");
    const query = q.size ? `?${q}` : "";
    const list = await api({ method: "GET", path: `/dashboard/features${query}` });
    if (list.status !== 200) return kit.refusedBy(list, "The features could not be read", session);
    return page(
      <FeaturesPage
        session={session}
        features={list.body.data}
        nextCursor={list.body.nextCursor ?? null}
        includeArchived={includeArchived}
        {...extra}
      />,
      status,
    );
  };
  const readFeature = (api: Api, feature: string) => api({ method: "GET", path: `${PATH}/${enc(feature)}` });
  const featurePage = async (api: Api, session: PageSession, feature: string, extra: { form?: FormState; done?: string } = {}, status = 200) => {
    const answer = await readFeature(api, feature);
    if (answer.status !== 200) return kit.refusedBy(answer, "The feature could not be read", session);
    return page(<FeaturePage session={session} feature={answer.body.data} {...extra} />, status);
  };
  return app
    .get("/dashboard/features", ({ request, query }) =>
      kit.signedIn(request, (api, session) => featuresPage(api, session, query.cursor, { done: query.done }, 200, query.includeArchived === "true")),
    )
    .post("/dashboard/features", ({ request, body }) =>
      kit.signedIn(request, async (api, session) => {
        const form = formOf(body);
        const input = {
          name: form.name ?? "",
          featureKey: form.featureKey ?? "",
          featureType: form.featureType ?? "",
          eventKey: given(form.eventKey),
          description: given(form.description),
        };
        const answer = await kit.send(api, form, { method: "POST", path: "/dashboard/features", body: input });
        if (answer.status === 201) return featuresPage(api, session, undefined, { created: answer.body.data.name }, 201);
        if (answer.status === 403) return kit.refusedBy(answer, "Refused", session);
        const { form: error, fields } = fieldErrors(answer, form);
        return featuresPage(api, session, undefined, { form: { values: form as Record<string, string>, error, fields } }, answer.status);
      }),
    )
    .get(`${PATH}/:feature`, ({ request, params, query }) =>
      kit.signedIn(request, (api, session) => featurePage(api, session, params.feature, { done: query.done })),
    )
    .post(`${PATH}/:feature/edit`, ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const form = formOf(body);
        const current = await readFeature(api, params.feature);
        if (current.status !== 200) return kit.refusedBy(current, "The feature could not be read", session);
        const was = featureValues(current.body.data as FeatureView);
        // Only what changed: an unchanged type is no change of type (which the feature's entitlements may forbid).
        const patch: Record<string, string> = {};
        for (const name of ["name", "featureType", "eventKey", "icon", "description"]) {
          const value = form[name] ?? "";
          if (value !== was[name]) patch[name] = value;
        }
        const answer = await kit.send(api, form, { method: "PATCH", path: `${PATH}/${enc(params.feature)}`, body: patch });
        if (answer.status === 200) return redirect(`${PATH}/${enc(params.feature)}?done=updated`);
        if (answer.status === 403 || answer.status === 404) return kit.refusedBy(answer, "Refused", session);
        return featurePage(api, session, params.feature, { form: refusal(answer, form) }, answer.status);
      }),
    )
    .post(`${PATH}/:feature/restore`, ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const answer = await kit.send(api, formOf(body), { method: "PATCH", path: `${PATH}/${enc(params.feature)}`, body: { archived: false } });
        if (answer.status !== 200) return kit.refusedBy(answer, "The feature could not be restored", session);
        return redirect(`${PATH}/${enc(params.feature)}?done=restored`);
      }),
    )
    .get(`${PATH}/:feature/remove`, ({ request, params }) =>
      kit.signedIn(request, async (api, session) => {
        if (!session.may("DELETE", "/dashboard/features/{feature}")) return kit.refused(403, READ_ONLY, session);
        const answer = await readFeature(api, params.feature);
        if (answer.status !== 200) return kit.refusedBy(answer, "The feature could not be read", session);
        return page(<RemoveFeaturePage session={session} feature={answer.body.data} />);
      }),
    )
    .post(`${PATH}/:feature/remove`, ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const answer = await kit.send(api, formOf(body), { method: "DELETE", path: `${PATH}/${enc(params.feature)}` });
        if (answer.status === 200) {
          if (answer.body.data.outcome === "archived") return redirect(`${PATH}/${enc(params.feature)}?done=archived`);
          return redirect(`${PATH}?done=deleted`);
        }
        // Refused while plans use it (409): the confirmation again, with the API's words.
        if (answer.status === 409) {
          const current = await readFeature(api, params.feature);
          if (current.status === 200)
            return page(<RemoveFeaturePage session={session} feature={current.body.data} error={answer.body?.error ?? null} />, 409);
        }
        return kit.refusedBy(answer, "The feature could not be removed", session);
      }),
    );
};
