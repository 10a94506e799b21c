/** The API keys section's routes: the list, create (the raw value in that one answer), revoke after a confirmation. */
import { fieldErrors, type Api } from "../../api";
import { formOf, given, type Section } from "../../kit";
import { page, redirect } from "../../response";
import type { PageSession } from "../../session";
import { ApiKeysPage, RevokePage, type ApiKeysProps, type ApiKeyView } from "./page";

export const apiKeyPages: Section = (kit) => (app) => {
  const keysPage = async (api: Api, session: PageSession, extra: Partial<ApiKeysProps> = {}, status = 200) => {
    const list = await api({ method: "GET", path: "/dashboard/api-keys" });
    if (list.status !== 200) return kit.refusedBy(list, "The keys could not be read", session);
    return page(<ApiKeysPage session={session} keys={list.body.data as ApiKeyView[]} {...extra} />, status);
  };
  return app
    .get("/dashboard/api-keys", ({ request }) => kit.signedIn(request, (api, session) => keysPage(api, session)))
    .post("/dashboard/api-keys", ({ request, body }) =>
      kit.signedIn(request, async (api, session) => {
        const form = formOf(body);
        const input = { name: form.name ?? "", type: form.type ?? "", description: given(form.description) };
        const answer = await kit.send(api, form, { method: "POST", path: "/dashboard/api-keys", body: input });
        if (answer.status === 201) return keysPage(api, session, { created: answer.body.data }, 201);
        if (answer.status === 403) return kit.refusedBy(answer, "Refused", session);
        const { form: error, fields } = fieldErrors(answer, form);
        return keysPage(api, session, { form: { values: form as Record<string, string>, error, fields } }, answer.status);
      }),
    )
    .get("/dashboard/api-keys/:id/revoke", ({ request, params }) =>
      kit.signedIn(request, async (api, session) => {
        const list = await api({ method: "GET", path: "/dashboard/api-keys" });
        const key = (list.body?.data as ApiKeyView[] | undefined)?.find((k) => k.id === params.id);
        if (!key) return kit.refused(404, "No such key in this environment", session);
        return page(<RevokePage session={session} apiKey={key} />);
      }),
    )
    .post("/dashboard/api-keys/:id/revoke", ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const answer = await kit.send(api, formOf(body), { method: "DELETE", path: `/dashboard/api-keys/${encodeURIComponent(params.id)}` });
        if (answer.status !== 200) return kit.refusedBy(answer, "The key could not be revoked", session);
        return redirect("/dashboard/api-keys");
      }),
    );
};
