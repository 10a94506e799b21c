/** POST /api-keys/tokens (embed tokens) and POST /access-tokens (customer session JWTs). */
import { Elysia } from "elysia";
import { authPlugin } from "../../http/auth";
import { requestState } from "../../http/request-context";
import { type AuthDeps } from "../../http/auth";
import { AccessTokenRequest, EmbedTokenRequest, TokenResponse } from "./schemas";
import { mintEmbedToken, mintSessionToken, type TokenDeps } from "./service";

/** What these routes need; the service's wiring (src/app-deps.ts) provides it. */
type RouteDeps = AuthDeps & TokenDeps;

export function tokenRoutes(deps: RouteDeps) {
  return new Elysia()
    .use(authPlugin(deps))
    .post(
      "/api-keys/tokens",
      async ({ principal, body, request, set }) => {
        set.status = 201;
        return mintEmbedToken(deps, principal, requestState(request).requestId, body);
      },
      {
        access: true,
        body: EmbedTokenRequest,
        response: { 201: TokenResponse },
        detail: {
          tags: ["Credentials"],
          summary: "Mint a short-lived embed access token for one company",
          description:
            "Returns a `be_tok_…` token valid for 60 to 900 seconds, usable from the browser on the company-scoped customer endpoints. The company is matched on any of id, wallet, email and created when unknown. The token stops working when the key that minted it is revoked.",
        },
      },
    )
    .post(
      "/access-tokens",
      async ({ principal, body, request, set }) => {
        set.status = 201;
        return mintSessionToken(deps, principal, requestState(request).requestId, body);
      },
      {
        access: true,
        body: AccessTokenRequest,
        response: { 201: TokenResponse },
        detail: {
          tags: ["Credentials"],
          summary: "Upsert a customer's company and user and return a session token (HS256 JWT)",
          description: "The JWT is an embed access token scoped to the company (and user); lifetime 60 to 86400 seconds, default 3600.",
        },
      },
    );
}
