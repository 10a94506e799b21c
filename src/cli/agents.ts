/**
 * `agent-dispatch list | disable | delete` and `agent-topup list`: the dashboard's auto-topup routes for an operator,
 * over the same service functions (src/modules/agents/manage.ts), the same query schemas and the same list names,
 * so a cursor of the dashboard pages on here and back. Changes are audited with actor `operator`. Registering a
 * funding mandate reads the chain and stays on the dashboard (docs/agents.md#funding-mandate).
 */
import { filteredList, MAX_PAGE_SIZE, pageRequest, pageResponse } from "../http/pagination";
import { checkSchema } from "../http/schema-errors";
import { deleteTopup, disableTopup, listConfigs, listDispatches } from "../modules/agents/manage";
import { presentConfig, presentDispatch } from "../modules/agents/present";
import { ConfigListQuery, DispatchListQuery } from "../modules/agents/schemas";
import { OPERATOR } from "../modules/teams/roles";
import { ENVIRONMENT_OPTION, TEAM_OPTION, tenant, wholeNumber } from "./args";
import { command } from "./command";
import { ListPage } from "./output";

const ID_OPTION = { id: { value: "<configuration id>", help: "atc_…", required: true } };
const PAGE_OPTIONS = {
  limit: { value: `<1-${MAX_PAGE_SIZE}>`, help: "Default 50" },
  cursor: { value: "<cursor>", help: "nextCursor of the previous page" },
};

const pageQuery = <T>(schema: Parameters<typeof checkSchema>[0], a: Record<string, string | undefined>, extra: Record<string, unknown> = {}) =>
  checkSchema<T>(schema, { limit: a.limit === undefined ? undefined : Number(wholeNumber("limit", a.limit)), cursor: a.cursor, ...extra }, "query");

const one = (a: Record<string, string | undefined>) => ({ tenant: tenant(a), id: a.id! });

export const agentCommands = [
  command({
    name: "agent-dispatch list",
    summary: "One page of auto-topup configurations, newest first, as GET /dashboard/agent-dispatch",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION, ...PAGE_OPTIONS },
    parse: (a) => ({ tenant: tenant(a), query: pageQuery<{ limit?: number; cursor?: string }>(ConfigListQuery, a) }),
    run: async (ctx, i) => {
      const page = pageRequest(ctx.config.tokenSigningSecret, "agent-dispatch", i.tenant, i.query);
      return new ListPage(pageResponse(page, await listConfigs(ctx.sql, i.tenant, page), (row) => presentConfig(ctx.config.chains, row)));
    },
  }),
  command({
    name: "agent-dispatch disable",
    summary: "Stop topping a wallet up until POST /agent/dispatch enables it again",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION, ...ID_OPTION },
    positional: "id",
    parse: one,
    run: async (ctx, i) =>
      presentConfig(ctx.config.chains, await disableTopup(ctx.sql, { tenant: i.tenant, actor: OPERATOR, now: new Date(ctx.now) }, i.id)),
  }),
  command({
    name: "agent-dispatch delete",
    summary: "Delete an auto-topup configuration (its dispatches stay listed)",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION, ...ID_OPTION },
    positional: "id",
    parse: one,
    run: async (ctx, i) =>
      presentConfig(ctx.config.chains, await deleteTopup(ctx.sql, { tenant: i.tenant, actor: OPERATOR, now: new Date(ctx.now) }, i.id)),
  }),
  command({
    name: "agent-topup list",
    summary: "One page of auto-topup dispatches, newest first, as GET /dashboard/agent-topups",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION, config: { value: "<configuration id>", help: "Only this configuration's" }, ...PAGE_OPTIONS },
    parse: (a) => ({
      tenant: tenant(a),
      query: pageQuery<{ limit?: number; cursor?: string; configId?: string }>(DispatchListQuery, a, { configId: a.config }),
    }),
    run: async (ctx, i) => {
      const page = pageRequest(ctx.config.tokenSigningSecret, filteredList("agent-topups", { configId: i.query.configId }), i.tenant, i.query);
      const rows = await listDispatches(ctx.sql, i.tenant, page, i.query.configId ?? null);
      return new ListPage(pageResponse(page, rows, (row) => presentDispatch(ctx.config.chains, row)));
    },
  }),
];
