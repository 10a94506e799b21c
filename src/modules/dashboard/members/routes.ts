/** Team members and invitations: list (members:read), invite, change roles, remove (members:write). */
import { Elysia, t } from "elysia";
import type { Principal } from "../../../auth/kinds";
import { authPlugin } from "../../../http/auth";
import { requestState } from "../../../http/request-context";
import { actorOf } from "../../audit/repo";
import { inviteMember, listInvitations } from "../../teams/invitations";
import { linkOrigin } from "../../../http/public-origin";
import { listMembers, removeMember, setMemberRoles } from "../../teams/members";
import type { MemberActor } from "../../teams/roles";
import type { DashboardDeps } from "../sessions/routes";
import { IdParams, Invitation, InviteRequest, InviteResponse, Member, RolesRequest } from "../schemas";
import { data } from "../../../http/envelope";
import { errorResponses } from "../../../http/error-schemas";

const TAGS = ["Dashboard"];
const GRANTING =
  "Only an owner may grant or remove `owner`; a member without owner or admin may grant or remove only roles they hold (403 `missing_permission`). The team's last owner cannot be removed or lose `owner` (409 `last_owner`).";

const by = (principal: Principal, request: Request): MemberActor => ({
  actor: actorOf(principal, requestState(request).requestId),
  roles: principal.roles,
});

export function memberRoutes(deps: DashboardDeps) {
  return new Elysia()
    .use(authPlugin(deps))
    .get("/dashboard/members", async ({ principal }) => ({ data: await listMembers(deps.sql, principal.teamId) }), {
      access: true,
      response: { 200: data(t.Array(Member)) },
      detail: { tags: TAGS, summary: "List the team's members (dashboard session only, role members:read)" },
    })
    .post(
      "/dashboard/members",
      async ({ principal, body, request, set }) => {
        set.status = 201;
        set.headers["cache-control"] = "no-store";
        const invited = await inviteMember(deps.sql, { teamId: principal.teamId, by: by(principal, request), now: deps.clock.now() }, body);
        return { data: { ...invited, acceptUrl: `${linkOrigin(deps.config, request)}/dashboard/invitations/accept#token=${invited.token}` } };
      },
      {
        access: true,
        body: InviteRequest,
        response: { 201: data(InviteResponse), ...errorResponses("conflict") },
        detail: {
          tags: TAGS,
          summary: "Invite someone to the team by email, with roles (dashboard session only, role members:write)",
          description: `Returns the invitation and its one-time token (shown only here, valid 7 days; this service sends no email: pass the token on). It is accepted with POST /dashboard/invitations/accept. 409 when the email is already a member. ${GRANTING}`,
        },
      },
    )
    .get("/dashboard/invitations", async ({ principal }) => ({ data: await listInvitations(deps.sql, principal.teamId, deps.clock.now()) }), {
      access: true,
      response: { 200: data(t.Array(Invitation)) },
      detail: { tags: TAGS, summary: "List the team's pending invitations (dashboard session only, role members:read)" },
    })
    .patch(
      "/dashboard/members/:id",
      async ({ principal, params, body, request }) => {
        const member = await setMemberRoles(deps.sql, { teamId: principal.teamId, by: by(principal, request) }, params.id, body.roles);
        deps.credentials.evict(member.id); // this instance at once; the others on the NOTIFY
        return { data: member };
      },
      {
        access: true,
        params: IdParams,
        body: RolesRequest,
        response: { 200: data(Member), ...errorResponses("not_found", "last_owner") },
        detail: {
          tags: TAGS,
          summary: "Replace a member's roles (dashboard session only, role members:write)",
          description: `Takes effect on the member's next request, on every instance. ${GRANTING}`,
        },
      },
    )
    .delete(
      "/dashboard/members/:id",
      async ({ principal, params, request }) => {
        const member = await removeMember(deps.sql, { teamId: principal.teamId, by: by(principal, request) }, params.id);
        deps.credentials.evict(member.id);
        return { data: member };
      },
      {
        access: true,
        params: IdParams,
        response: { 200: data(Member), ...errorResponses("not_found", "last_owner") },
        detail: {
          tags: TAGS,
          summary: "Remove a member from the team (dashboard session only, role members:write)",
          description: `Revokes every session the member holds, at once. ${GRANTING}`,
        },
      },
    );
}
