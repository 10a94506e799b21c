/** The proofs domain's one Elysia plugin, mounted once in app.ts: zkTLS proofs (docs/proofs.md). */
import { Elysia } from "elysia";
import { zktlsRoutes, type ProofRouteDeps } from "./routes";

export function proofsPlugin(deps: ProofRouteDeps) {
  return new Elysia().use(zktlsRoutes(deps));
}
