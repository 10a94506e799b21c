/**
 * Accepting an invitation in the browser (public: the invitation is the credential). The link carries its token in
 * the fragment, which the page's script puts in the form; the post spends it and signs the person in.
 */
import { fieldErrors } from "../../api";
import { formOf, type Section } from "../../kit";
import { page, redirect } from "../../response";
import { presentedCredential } from "../../../auth/resolve";
import { AcceptPage, ACCEPT_PATH } from "./page";

/** Where the new member lands: their teams, the one joined among them with their roles (any member may read it, whatever the roles given). */
const LANDING = "/dashboard/teams";

export const invitationPages: Section = (kit) => (app) =>
  app
    .get(ACCEPT_PATH, () => page(<AcceptPage />))
    .post(ACCEPT_PATH, async ({ request, body }) => {
      const form = formOf(body);
      const input = { token: form.token ?? "", name: form.name ?? "", password: form.password ?? "" };
      const api = kit.apiOf(request);
      const answer = await api({ method: "POST", path: ACCEPT_PATH, body: input });
      if (answer.status === 200) {
        // A session this browser held before ends: it is someone else's now, or theirs in another team.
        if (presentedCredential(request.headers)) {
          const { api: previous, session } = await kit.context(request);
          if (session) await previous({ method: "POST", path: "/dashboard/sign-out", csrf: session.csrfToken });
        }
        return redirect(LANDING, answer.setCookie);
      }
      const { form: error, fields } = fieldErrors(answer);
      return page(<AcceptPage token={form.token} name={form.name} error={error} fields={fields} />, answer.status);
    });
