/**
 * The escrow routes (docs/escrow.md): POST /escrow/reservations (server keys, payments.write), the reads (server keys
 * and the dashboard), POST /escrow/reservations/{id}/resolve (dashboard, billing:write) and the public
 * POST /public/escrow/dispute.
 */
import { Elysia } from "elysia";
import type { ChainPool } from "../../chains/pool";
import type { Sql } from "../../db/client";
import { EMBED_TOKEN_PREFIX } from "../../auth/key-format";
import { presentedCredential, resolvePrincipal } from "../../auth/resolve";
import { authPlugin, type AuthDeps } from "../../http/auth";
import { clientAddress } from "../../http/client-address";
import { errorResponses } from "../../http/error-schemas";
import { assertJsonBody } from "../../http/json-body";
import { filteredList, Page, pageRequest, pageResponse } from "../../http/pagination";
import { requestState } from "../../http/request-context";
import { apiError } from "../../lib/errors";
import type { Logger } from "../../lib/logger";
import type { ChainRegistry } from "../../lib/networks";
import { rateLimitHeaders } from "../../ratelimit/headers";
import { actorOf } from "../audit/repo";
import type { EscrowStep } from "./context";
import { createReservation } from "./create";
import { disputeReservation, type PayerProof } from "./dispute";
import { CREATE_DESCRIPTION, DISPUTE_DESCRIPTION, GET_DESCRIPTION, LIST_DESCRIPTION, RESOLVE_DESCRIPTION } from "./docs";
import { presentReservation } from "./present";
import { findCompanyId, findReservation, listReservationPage } from "./repo";
import { resolveDispute } from "./resolve";
import {
  DisputeReceipt,
  DisputeRequest,
  EscrowReservation,
  ReservationCreate,
  ReservationEnvelope,
  ReservationListQuery,
  ReservationParams,
  Resolution,
} from "./schemas";

export type EscrowRouteDeps = AuthDeps & {
  sql: Sql;
  config: { tokenSigningSecret: string; chains: ChainRegistry; trustProxy: boolean };
  subscriptions: { pool: ChainPool };
  logger?: Logger;
};

const TAGS = ["Escrow"];

export function escrowRoutes(deps: EscrowRouteDeps) {
  const escrow = { sql: deps.sql, chains: deps.config.chains, pool: deps.subscriptions.pool, logger: deps.logger };
  const step = (actor: EscrowStep["actor"]): EscrowStep => ({ deps: escrow, actor, now: new Date(deps.clock.now()) });
  const secret = deps.config.tokenSigningSecret;
  return new Elysia()
    .use(authPlugin(deps))
    .post(
      "/escrow/reservations",
      async ({ principal, body, request, set }) => {
        const row = await createReservation(step(actorOf(principal, requestState(request).requestId)), principal, body);
        set.status = 201;
        return { reservation: presentReservation(deps.config.chains, row) };
      },
      {
        access: true,
        body: ReservationCreate,
        response: {
          201: ReservationEnvelope,
          ...errorResponses(
            "validation_failed",
            "escrow_consent_refused",
            "escrow_payment_refused",
            "not_found",
            "escrow_nonce_used",
            "escrow_not_configured",
            "escrow_refused",
            "chain_outcome_unknown",
          ),
        },
        detail: { tags: TAGS, summary: "Reserve a payment in escrow from the payer's signed consent", description: CREATE_DESCRIPTION },
      },
    )
    .get(
      "/escrow/reservations",
      async ({ principal, query }) => {
        const page = pageRequest(secret, filteredList("escrow-reservations", { status: query.status, companyId: query.companyId }), principal, query);
        // An unknown company lists nothing: its reference is kept as the filter, which no row holds.
        const companyId = query.companyId === undefined ? null : ((await findCompanyId(deps.sql, principal, query.companyId)) ?? query.companyId);
        const rows = await listReservationPage(deps.sql, principal, page, { status: query.status ?? null, companyId });
        return pageResponse(page, rows, (row) => presentReservation(deps.config.chains, row));
      },
      {
        access: true,
        query: ReservationListQuery,
        response: { 200: Page(EscrowReservation), ...errorResponses("validation_failed") },
        detail: { tags: TAGS, summary: "List escrow reservations, newest first", description: LIST_DESCRIPTION },
      },
    )
    .get(
      "/escrow/reservations/:id",
      async ({ principal, params }) => {
        const row = await findReservation(deps.sql, principal, params.id);
        if (!row) throw apiError("not_found", `No escrow reservation ${params.id}`);
        return { reservation: presentReservation(deps.config.chains, row) };
      },
      {
        access: true,
        params: ReservationParams,
        response: { 200: ReservationEnvelope, ...errorResponses("validation_failed", "not_found") },
        detail: { tags: TAGS, summary: "Get an escrow reservation", description: GET_DESCRIPTION },
      },
    )
    .post(
      "/escrow/reservations/:id/resolve",
      async ({ principal, params, body, request }) => {
        const row = await resolveDispute(step(actorOf(principal, requestState(request).requestId)), principal, {
          id: params.id,
          outcome: body.outcome,
        });
        return { reservation: presentReservation(deps.config.chains, row) };
      },
      {
        access: true,
        params: ReservationParams,
        body: Resolution,
        response: {
          200: ReservationEnvelope,
          ...errorResponses("validation_failed", "not_found", "escrow_refused", "escrow_not_configured", "chain_outcome_unknown"),
        },
        detail: { tags: TAGS, summary: "Resolve a disputed escrow reservation (refund or capture)", description: RESOLVE_DESCRIPTION },
      },
    )
    .post(
      "/public/escrow/dispute",
      async ({ body, request }) => {
        const proof = await payerProof(deps, request, body.signature);
        const requestId = requestState(request).requestId;
        // A signature's payer is known once the reservation is found (dispute.ts names it then).
        const actor = proof.kind === "embed_token" ? actorOf(proof.principal, requestId) : { kind: "payer_wallet", id: "unknown", requestId };
        const row = await disputeReservation(step(actor), body, proof);
        return { ok: true as const, receipt: { requestNonce: row.request_nonce, status: "disputed" as const } };
      },
      {
        // Public: no credential. The client address's window of the request rate limit is spent first, then JSON only.
        transform: ({ request, set }) => admitPublic(deps, request, set),
        body: DisputeRequest,
        response: {
          200: DisputeReceipt,
          ...errorResponses(
            "validation_failed",
            "invalid_credentials",
            "escrow_not_payer",
            "escrow_refused",
            "escrow_not_configured",
            "rate_limited",
            "chain_outcome_unknown",
          ),
        },
        detail: { tags: TAGS, summary: "Dispute an escrow reservation as its payer (public)", description: DISPUTE_DESCRIPTION },
      },
    );
}

/** One request of the client address's window (when the deployment has the limiter on), then JSON only. */
async function admitPublic(deps: EscrowRouteDeps, request: Request, set: { headers: Record<string, unknown> }): Promise<void> {
  const limiter = deps.rateLimiter;
  if (limiter) {
    const now = deps.clock.now();
    const admission = await limiter.take(`public:escrow-dispute:${clientAddress(deps.config, request)}`, now);
    const headers = rateLimitHeaders(limiter.limit, admission, now);
    if (!admission.admitted) throw apiError("rate_limited", "Rate limit exceeded", undefined, headers);
    Object.assign(set.headers, headers);
  }
  assertJsonBody(request);
}

/** The payer's proof: the body's signature, or the Authorization header's embed token (one of the two). */
async function payerProof(deps: EscrowRouteDeps, request: Request, signature: string | undefined): Promise<PayerProof> {
  const bearer = request.headers.get("authorization") !== null;
  if (signature !== undefined && bearer)
    throw apiError("validation_failed", "Validation failed", { "body.signature": "Send either a signature or an embed token, not both" });
  if (signature !== undefined) return { kind: "signature", signature };
  if (!bearer)
    throw apiError("validation_failed", "Validation failed", {
      "body.signature":
        "Required: the payer wallet's signature of the dispute text, or an Authorization: Bearer embed token of the reservation's company",
    });
  // Anything but a usable embed token answers the same 401, valid server key or not, expired token or forged: this
  // public route is no oracle of which keys exist. Only embed-token-shaped credentials are looked at at all.
  const notEmbed = () =>
    apiError("invalid_credentials", "Invalid credentials: only an embed token of the reservation's company proves the payer here");
  const raw = presentedCredential(request.headers)?.raw ?? "";
  if (!raw.startsWith(EMBED_TOKEN_PREFIX) && !raw.startsWith("eyJ")) throw notEmbed();
  const principal = await Promise.resolve(resolvePrincipal(deps, request.headers, "POST")).catch(() => null);
  if (principal?.kind !== "embed") throw notEmbed();
  return { kind: "embed_token", principal };
}
