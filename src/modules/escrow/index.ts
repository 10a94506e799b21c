/** The escrow domain's one Elysia plugin, mounted once in app.ts: reservations, disputes, resolutions (docs/escrow.md). */
import { Elysia } from "elysia";
import { escrowRoutes, type EscrowRouteDeps } from "./routes";

export function escrowPlugin(deps: EscrowRouteDeps) {
  return new Elysia().use(escrowRoutes(deps));
}
