/** The members section's routes: the list with pending invitations, invite (the link shown once), change roles, remove after a confirmation. */
import { fieldErrors, type Api, type ApiAnswer } from "../../api";
import { formOf, type PageKit, type Section } from "../../kit";
import { page, redirect } from "../../response";
import type { PageSession } from "../../session";
import { many } from "../../forms";
import { MembersPage, PATH, RemovePage, RolesPage, type MemberView, type MembersProps } from "./page";

const refusal = (answer: ApiAnswer, form: Record<string, string | undefined>, roles: string[]) => {
  const { form: error, fields } = fieldErrors(answer);
  return { values: form as Record<string, string>, roles, error, fields };
};

/** One member of the list (the API lists members, it has no route for one), or the 404 page. */
async function withMember(kit: PageKit, api: Api, session: PageSession, id: string, render: (m: MemberView) => Response | Promise<Response>) {
  const list = await api({ method: "GET", path: PATH });
  if (list.status !== 200) return kit.refusedBy(list, "The members could not be read", session);
  const member = (list.body.data as MemberView[]).find((m) => m.id === id);
  return member ? render(member) : kit.refused(404, "No such member in this team", session);
}

/** A confirmation or roles page asked for by a member whose role could not use it: no form is shown. */
const NOT_YOURS = "Your role lets you see members, not change or remove them.";

export const memberPages: Section = (kit) => (app) => {
  const membersPage = async (api: Api, session: PageSession, extra: Partial<MembersProps> = {}, status = 200) => {
    const [members, invitations] = await Promise.all([api({ method: "GET", path: PATH }), api({ method: "GET", path: "/dashboard/invitations" })]);
    if (members.status !== 200) return kit.refusedBy(members, "The members could not be read", session);
    if (invitations.status !== 200) return kit.refusedBy(invitations, "The invitations could not be read", session);
    return page(<MembersPage session={session} members={members.body.data} invitations={invitations.body.data} {...extra} />, status);
  };
  return app
    .get(PATH, ({ request, query }) => kit.signedIn(request, (api, session) => membersPage(api, session, { done: query.done })))
    .post(PATH, ({ request, body }) =>
      kit.signedIn(request, async (api, session) => {
        const form = formOf(body);
        const roles = many(formOf(body).roles);
        const answer = await kit.send(api, form, { method: "POST", path: PATH, body: { email: form.email ?? "", roles } });
        if (answer.status === 201) {
          const { invitation, acceptUrl } = answer.body.data;
          return membersPage(api, session, { invited: { invitation, link: acceptUrl } }, 201);
        }
        // A refusal for a member who has no form (a forged post) is the refusal page; else the form comes back.
        if (!session.may("POST", PATH)) return kit.refusedBy(answer, "Refused", session);
        return membersPage(api, session, { form: refusal(answer, form, roles) }, answer.status);
      }),
    )
    .get(`${PATH}/:id/roles`, ({ request, params }) =>
      kit.signedIn(request, (api, session) =>
        !session.may("PATCH", `${PATH}/{id}`)
          ? kit.refused(403, NOT_YOURS, session)
          : withMember(kit, api, session, params.id, (member) => page(<RolesPage session={session} member={member} />)),
      ),
    )
    .post(`${PATH}/:id/roles`, ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const form = formOf(body);
        const roles = many(formOf(body).roles);
        const answer = await kit.send(api, form, { method: "PATCH", path: `${PATH}/${encodeURIComponent(params.id)}`, body: { roles } });
        if (answer.status === 200) return redirect(`${PATH}?done=roles`);
        if (!session.may("PATCH", `${PATH}/{id}`)) return kit.refusedBy(answer, "Refused", session);
        return withMember(kit, api, session, params.id, (member) =>
          page(<RolesPage session={session} member={member} form={refusal(answer, form, roles)} />, answer.status),
        );
      }),
    )
    .get(`${PATH}/:id/remove`, ({ request, params }) =>
      kit.signedIn(request, (api, session) =>
        !session.may("DELETE", `${PATH}/{id}`)
          ? kit.refused(403, NOT_YOURS, session)
          : withMember(kit, api, session, params.id, (member) => page(<RemovePage session={session} member={member} />)),
      ),
    )
    .post(`${PATH}/:id/remove`, ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const answer = await kit.send(api, formOf(body), { method: "DELETE", path: `${PATH}/${encodeURIComponent(params.id)}` });
        if (answer.status === 200) return redirect(`${PATH}?done=removed`);
        if (!session.may("DELETE", `${PATH}/{id}`)) return kit.refusedBy(answer, "Refused", session);
        const { form: error, fields } = fieldErrors(answer);
        return withMember(kit, api, session, params.id, (member) =>
          page(<RemovePage session={session} member={member} error={error ?? Object.values(fields).join(" ")} />, answer.status),
        );
      }),
    );
};
