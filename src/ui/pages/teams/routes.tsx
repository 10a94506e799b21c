/**
 * The teams section's routes: the operator's teams, and the switch. A switch is a sign-in into the other team with
 * the operator's password (the API's sign-in: throttled, audited); the session this browser held then ends. No
 * password-less switch exists: a session made for one team (a narrow automation session, a one-time link) must
 * not become one in every other team of its operator (docs/decisions.md).
 */
import { fieldErrors, type Api } from "../../api";
import { csrfMatches, formOf, text, type Section } from "../../kit";
import { page, redirect } from "../../response";
import type { PageSession } from "../../session";
import { PATH, TeamsPage, type TeamsProps } from "./page";

export const teamPages: Section = (kit) => (app) => {
  const teamsPage = async (api: Api, session: PageSession, extra: Partial<TeamsProps> = {}, status = 200) => {
    const list = await api({ method: "GET", path: "/dashboard/teams" });
    if (list.status !== 200) return kit.refusedBy(list, "Your teams could not be read", session);
    return page(<TeamsPage session={session} teams={list.body.data} {...extra} />, status);
  };
  return app
    .get(PATH, ({ request, query }) => kit.signedIn(request, (api, session) => teamsPage(api, session, { switched: query.done === "switched" })))
    .post(`${PATH}/switch`, ({ request, body }) =>
      kit.signedIn(request, async (api, session) => {
        const form = formOf(body);
        // The sign-in is public (no CSRF token of its own): the form must carry this session's.
        if (!csrfMatches(form, session))
          return kit.refused(403, "This form is out of date or was not sent by this page: reload it and try again.", session);
        const teamId = text(form.teamId);
        const input = { email: session.operator.email, password: text(form.password), teamId };
        const answer = await api({ method: "POST", path: "/dashboard/sign-in", body: input });
        if (answer.status === 200) {
          await kit.endSession(request);
          return redirect(`${PATH}?done=switched`, answer.setCookie);
        }
        const { form: error, fields } = fieldErrors(answer, { password: "" });
        return teamsPage(api, session, { refused: { teamId, error: error ?? fields.password ?? null } }, answer.status);
      }),
    );
};
