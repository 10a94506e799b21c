/**
 * `operator create`, `member invite | list | roles | remove`, `sign-in-link`: the dashboard's accounts
 * from the command line, through the same service functions as the /dashboard routes. The CLI acts as a
 * team owner (it may grant and remove `owner`, but still never remove or demote the last owner).
 * A password is never an argument (argv is visible to every user of the machine and lands in shell
 * history): it is read from OPERATOR_PASSWORD or, when that is unset, from standard input.
 */
import { DASHBOARD_ROLES } from "../auth/kinds";
import { inviteMember } from "../modules/teams/invitations";
import { listMembers, removeMember, setMemberRoles } from "../modules/teams/members";
import { createOperator } from "../modules/teams/operators";
import type { MemberActor } from "../modules/teams/roles";
import { OPERATOR } from "../modules/teams/roles";
import { requireTeam } from "../modules/teams/team";
import { createSignInLink } from "../modules/teams/sign-in";
import { list, TEAM_OPTION } from "./args";
import { command, UsageError } from "./command";

const CLI: MemberActor = { actor: OPERATOR, roles: "cli" };
const ROLES_HELP = DASHBOARD_ROLES.join(", ");

async function readPassword(): Promise<string> {
  const fromEnv = process.env.OPERATOR_PASSWORD;
  if (fromEnv) return fromEnv;
  const text = await Bun.stdin.text();
  // One line: the trailing newline of `echo` or a here-string is not part of the password.
  const password = text.replace(/\r?\n$/, "");
  if (!password) throw new UsageError("Give the password in OPERATOR_PASSWORD or on standard input (never as an argument)");
  return password;
}

export const memberCommands = [
  command({
    name: "operator create",
    summary: "Create a dashboard account; the password comes from OPERATOR_PASSWORD or standard input",
    options: {
      email: { value: "<email>", help: "Unique, whatever its case", required: true },
      name: { value: "<name>", help: "Display name", required: true },
    },
    parse: (a) => ({ email: a.email!, name: a.name! }),
    run: async ({ sql, config }, input) => createOperator(sql, { ...input, password: await readPassword() }, config.passwordHashMemoryKib),
  }),
  command({
    name: "member invite",
    summary: "Invite an email to a team with roles; prints the one-time invitation token (valid 7 days)",
    options: {
      ...TEAM_OPTION,
      email: { value: "<email>", help: "", required: true },
      roles: { value: "a,b", help: ROLES_HELP, required: true },
    },
    parse: (a) => ({ teamId: a.team!, email: a.email!, roles: list(a.roles) ?? [] }),
    run: ({ sql, now }, { teamId, ...input }) => inviteMember(sql, { teamId, by: CLI, now }, input),
  }),
  command({
    name: "member list",
    summary: "List a team's members and their roles",
    options: { ...TEAM_OPTION },
    parse: (a) => a.team!,
    run: async ({ sql }, teamId) => {
      await requireTeam(sql, teamId);
      return listMembers(sql, teamId);
    },
  }),
  command({
    name: "member roles",
    summary: "Replace a member's roles (effective on their next request)",
    options: {
      ...TEAM_OPTION,
      id: { value: "<member id>", help: "mem_…", required: true },
      roles: { value: "a,b", help: ROLES_HELP, required: true },
    },
    parse: (a) => ({ teamId: a.team!, id: a.id!, roles: list(a.roles) ?? [] }),
    run: ({ sql }, { teamId, id, roles }) => setMemberRoles(sql, { teamId, by: CLI }, id, roles),
  }),
  command({
    name: "member remove",
    summary: "Remove a member; every session they hold is revoked at once",
    options: { ...TEAM_OPTION, id: { value: "<member id>", help: "mem_…", required: true } },
    parse: (a) => ({ teamId: a.team!, id: a.id! }),
    run: ({ sql }, { teamId, id }) => removeMember(sql, { teamId, by: CLI }, id),
  }),
  command({
    name: "sign-in-link",
    summary: "Print a one-time sign-in link (and its token) for a member; valid 15 minutes, used once",
    options: { email: { value: "<email>", help: "The member's account", required: true }, ...TEAM_OPTION },
    parse: (a) => ({ email: a.email!, teamId: a.team! }),
    run: ({ sql, now, baseUrl }, input) =>
      createSignInLink(sql, input, { now, actor: OPERATOR, dashboardUrl: `${new URL(baseUrl).origin}/dashboard` }),
  }),
];
