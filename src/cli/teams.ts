/** `team create`, `key create | list | revoke`, `session create`: the credentials only an operator hands out. */
import { DASHBOARD_ROLES, KEY_TYPE_BY_KIND } from "../auth/kinds";
import { createDashboardSession } from "../modules/teams/automation-session";
import { createKey, listKeys, revokeKey } from "../modules/teams/keys";
import { createTeam } from "../modules/teams/team";
import { ENVIRONMENT_OPTION, TEAM_OPTION, isoDate, list, oneOf, tenant, wholeNumber } from "./args";
import { command } from "./command";

const KEY_KINDS = Object.keys(KEY_TYPE_BY_KIND) as (keyof typeof KEY_TYPE_BY_KIND)[];

export const teamCommands = [
  command({
    name: "team create",
    summary: "Create a team",
    options: { name: { value: "<name>", help: "Display name", required: true } },
    parse: (a) => a.name!,
    run: ({ sql }, name) => createTeam(sql, name),
  }),
  command({
    name: "key create",
    summary: "Create an API key; the raw key is printed once, here",
    options: {
      ...TEAM_OPTION,
      kind: { value: KEY_KINDS.join("|"), help: "Key kind", required: true },
      ...ENVIRONMENT_OPTION,
      name: { value: "<name>", help: "Default '<kind> key'" },
      description: { value: "<text>", help: "" },
      permissions: { value: "a,b", help: "Restricted keys need at least one; publishable keys default to the client-safe set" },
      "expires-at": { value: "<ISO date>", help: "In the future" },
    },
    parse: (a) => {
      const kind = oneOf("kind", a.kind, KEY_KINDS)!;
      const { teamId, environment } = tenant(a);
      return {
        teamId,
        environment,
        type: KEY_TYPE_BY_KIND[kind],
        name: a.name ?? `${kind} key`,
        description: a.description ?? null,
        permissions: list(a.permissions),
        expiresAt: isoDate("expires-at", a["expires-at"]),
      };
    },
    run: ({ sql, now }, input) => createKey(sql, input, now),
  }),
  command({
    name: "key list",
    summary: "List a team's keys (never the raw keys)",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION },
    parse: (a) => tenant(a),
    run: ({ sql }, { teamId, environment }) => listKeys(sql, teamId, environment),
  }),
  command({
    name: "key revoke",
    summary: "Revoke a key; every instance stops accepting it at once",
    options: { ...TEAM_OPTION, id: { value: "<key id>", help: "key_…", required: true }, ...ENVIRONMENT_OPTION },
    parse: (a) => ({ ...tenant(a), id: a.id! }),
    run: ({ sql }, { teamId, environment, id }) => revokeKey(sql, { teamId, environment }, id),
  }),
  command({
    name: "session create",
    summary: "Create a dashboard session for automation and tests: the email's account and membership are made or given these roles",
    options: {
      ...TEAM_OPTION,
      email: { value: "<user email>", help: "", required: true },
      roles: { value: "a,b", help: DASHBOARD_ROLES.join(", "), required: true },
      ...ENVIRONMENT_OPTION,
      "ttl-hours": { value: "<N>", help: "1 to 720, default 12" },
    },
    parse: (a) => ({
      ...tenant(a),
      userEmail: a.email!,
      roles: list(a.roles) ?? [],
      // The service holds the 1-720 rule; this only makes sure a number reaches it.
      ttlHours: a["ttl-hours"] === undefined ? undefined : Number(wholeNumber("ttl-hours", a["ttl-hours"], 1n)),
    }),
    run: ({ sql, now }, input) => createDashboardSession(sql, input, now),
  }),
];
