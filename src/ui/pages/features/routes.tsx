/** The features section's routes: the catalog's features a page at a time, and the create form. */
import { fieldErrors, type Api } from "../../api";
import { formOf, given, type Section } from "../../kit";
import { page } from "../../response";
import type { PageSession } from "../../session";
import { FeaturesPage, type FeaturesProps } from "./page";

export const featurePages: Section = (kit) => (app) => {
  const featuresPage = async (api: Api, session: PageSession, cursor: string | undefined, extra: Partial<FeaturesProps> = {}, status = 200) => {
    const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : "";
    const list = await api({ method: "GET", path: `/dashboard/features${query}` });
    if (list.status !== 200) return kit.refusedBy(list, "The features could not be read", session);
    return page(<FeaturesPage session={session} features={list.body.data} nextCursor={list.body.nextCursor ?? null} {...extra} />, status);
  };
  return app
    .get("/dashboard/features", ({ request, query }) => kit.signedIn(request, (api, session) => featuresPage(api, session, query.cursor)))
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
    );
};
