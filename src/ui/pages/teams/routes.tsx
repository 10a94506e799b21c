/** The teams section's routes: the operator's teams, and the switch (a new session, its cookie set by the API's answer). */
import { formOf, type Section } from "../../kit";
import { page, redirect } from "../../response";
import { PATH, TeamsPage } from "./page";

export const teamPages: Section = (kit) => (app) =>
  app
    .get(PATH, ({ request, query }) =>
      kit.signedIn(request, async (api, session) => {
        const list = await api({ method: "GET", path: "/dashboard/teams" });
        if (list.status !== 200) return kit.refusedBy(list, "Your teams could not be read", session);
        return page(<TeamsPage session={session} teams={list.body.data} switched={query.done === "switched"} />);
      }),
    )
    .post(`${PATH}/switch`, ({ request, body }) =>
      kit.signedIn(request, async (api, session) => {
        const form = formOf(body);
        const answer = await kit.send(api, form, { method: "POST", path: "/dashboard/session/team", body: { teamId: form.teamId ?? "" } });
        if (answer.status !== 200) return kit.refusedBy(answer, "The team could not be switched", session);
        return redirect(`${PATH}?done=switched`, answer.setCookie);
      }),
    );
