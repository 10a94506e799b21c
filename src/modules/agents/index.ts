/** The agents domain's one Elysia plugin, mounted once in app.ts: auto-topup of agent wallets (docs/agents.md). */
import { Elysia } from "elysia";
import { agentRoutes, type AgentRouteDeps } from "./routes";

export function agentsPlugin(deps: AgentRouteDeps) {
  return new Elysia().use(agentRoutes(deps));
}
