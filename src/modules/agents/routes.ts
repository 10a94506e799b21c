/**
 * POST /agent/dispatch (secret and restricted keys, payments.write) and the dashboard's auto-topup routes
 * (billing:read / billing:write): configurations, funding mandates and dispatches (docs/agents.md).
 */
import { Elysia } from "elysia";
import type { ChainPool } from "../../chains/pool";
import type { Sql } from "../../db/client";
import { authPlugin, type AuthDeps } from "../../http/auth";
import { data } from "../../http/envelope";
import { ErrorBody, errorResponses } from "../../http/error-schemas";
import { filteredList, Page, pageRequest, pageResponse } from "../../http/pagination";
import { requestState } from "../../http/request-context";
import type { Clock } from "../../lib/clock";
import type { ChainRegistry } from "../../lib/networks";
import { actorOf } from "../audit/repo";
import { configureTopup } from "./configure";
import { CONFIGURE_DESCRIPTION, DISPATCHES_DESCRIPTION, FUNDING_DESCRIPTION } from "./docs";
import { listFunding, registerFunding, revokeFunding } from "./funding";
import { deleteTopup, disableTopup, listConfigs, listDispatches } from "./manage";
import { presentConfig, presentDispatch, presentFundingMandate } from "./present";
import {
  AgentDispatchConfig,
  AgentFundingMandate,
  AgentTopupDispatch,
  ConfigListQuery,
  ConfigParams,
  DispatchConfigBody,
  DispatchListQuery,
  FundingMandatePut,
  NetworkParams,
} from "./schemas";

export type AgentRouteDeps = AuthDeps & {
  sql: Sql;
  clock: Clock;
  config: { chains: ChainRegistry; tokenSigningSecret: string };
  subscriptions: { pool: ChainPool };
};

const TAGS = ["Dashboard: agents"];

export function agentRoutes(deps: AgentRouteDeps) {
  const chains = deps.config.chains;
  const secret = deps.config.tokenSigningSecret;
  const context = (principal: Parameters<typeof actorOf>[0], request: Request) => ({
    tenant: principal,
    actor: actorOf(principal, requestState(request).requestId),
    now: new Date(deps.clock.now()),
  });
  const agentDeps = { sql: deps.sql, chains };
  return new Elysia()
    .use(authPlugin(deps))
    .post(
      "/agent/dispatch",
      async ({ principal, body, request, set }) => {
        const row = await configureTopup(agentDeps, context(principal, request), body);
        set.status = row.created ? 201 : 200;
        return { data: presentConfig(chains, row) };
      },
      {
        access: true,
        body: DispatchConfigBody,
        response: {
          200: data(AgentDispatchConfig, "The configuration existed (same team, environment, wallet and network) and was updated"),
          201: data(AgentDispatchConfig, "The configuration was created"),
          ...errorResponses("validation_failed"),
        },
        detail: { tags: ["Agents"], summary: "Configure auto-topup of an agent wallet", description: CONFIGURE_DESCRIPTION },
      },
    )
    .get(
      "/dashboard/agent-dispatch",
      async ({ principal, query }) => {
        const page = pageRequest(secret, "agent-dispatch", principal, query);
        return pageResponse(page, await listConfigs(deps.sql, principal, page), (row) => presentConfig(chains, row));
      },
      {
        access: true,
        query: ConfigListQuery,
        response: { 200: Page(AgentDispatchConfig), ...errorResponses("validation_failed") },
        detail: { tags: TAGS, summary: "The environment's auto-topup configurations, newest first", description: CONFIGURE_DESCRIPTION },
      },
    )
    .post(
      "/dashboard/agent-dispatch/:id/disable",
      async ({ principal, params, request }) => ({
        data: presentConfig(chains, await disableTopup(deps.sql, context(principal, request), params.id)),
      }),
      {
        access: true,
        params: ConfigParams,
        response: { 200: data(AgentDispatchConfig), 404: ErrorBody },
        detail: {
          tags: TAGS,
          summary: "Disable an auto-topup configuration",
          description:
            "The monitor skips it from the next tick on; POST /agent/dispatch for the same wallet and network enables it again. 404 for an id the environment does not have.",
        },
      },
    )
    .delete(
      "/dashboard/agent-dispatch/:id",
      async ({ principal, params, request }) => ({
        data: presentConfig(chains, await deleteTopup(deps.sql, context(principal, request), params.id)),
      }),
      {
        access: true,
        params: ConfigParams,
        response: { 200: data(AgentDispatchConfig), 404: ErrorBody },
        detail: {
          tags: TAGS,
          summary: "Delete an auto-topup configuration",
          description: "Answers with the configuration as it was; its dispatches stay listed. 404 for an id the environment does not have.",
        },
      },
    )
    .get(
      "/dashboard/agent-topups",
      async ({ principal, query }) => {
        const page = pageRequest(secret, filteredList("agent-topups", { configId: query.configId }), principal, query);
        return pageResponse(page, await listDispatches(deps.sql, principal, page, query.configId ?? null), (row) => presentDispatch(chains, row));
      },
      {
        access: true,
        query: DispatchListQuery,
        response: { 200: Page(AgentTopupDispatch), ...errorResponses("validation_failed") },
        detail: { tags: TAGS, summary: "Auto-topup dispatches, newest first", description: DISPATCHES_DESCRIPTION },
      },
    )
    .get(
      "/dashboard/agent-funding",
      async ({ principal }) => {
        const rows = (await listFunding(deps.sql, principal)).map((row) => presentFundingMandate(chains, row));
        return { data: rows, count: rows.length, nextCursor: null };
      },
      {
        access: true,
        response: Page(AgentFundingMandate),
        detail: {
          tags: TAGS,
          summary: "The environment's auto-topup funding mandates, one per network",
          description: `${FUNDING_DESCRIPTION} One per network, so the whole list is one page (\`nextCursor\` is always null).`,
        },
      },
    )
    .put(
      "/dashboard/agent-funding/:network",
      async ({ principal, params, body, request }) => {
        const row = await registerFunding({ ...agentDeps, pool: deps.subscriptions.pool }, context(principal, request), params.network, body);
        return { data: presentFundingMandate(chains, row) };
      },
      {
        access: true,
        params: NetworkParams,
        body: FundingMandatePut,
        response: {
          200: data(AgentFundingMandate),
          ...errorResponses("validation_failed", "conflict", "payment_account_in_use", "chain_unavailable"),
        },
        detail: { tags: TAGS, summary: "Register the funding mandate of a network", description: FUNDING_DESCRIPTION },
      },
    )
    .delete(
      "/dashboard/agent-funding/:network",
      async ({ principal, params, request }) => ({
        data: presentFundingMandate(chains, await revokeFunding(deps.sql, context(principal, request), params.network)),
      }),
      {
        access: true,
        params: NetworkParams,
        response: { 200: data(AgentFundingMandate), 404: ErrorBody },
        detail: {
          tags: TAGS,
          summary: "Revoke the funding mandate of a network",
          description:
            "Top-ups on the network stop drawing on it (each is recorded failed, `mandate_revoked`). The funder may also withdraw its approval on chain. 404 when the network has none.",
        },
      },
    );
}
