/** The x402 headers of the metered operations, POST /events and POST /usage/consume, in the OpenAPI document (docs/x402.md#headers). */

const HEADER_DOC = {
  paymentRequired:
    "x402 v2 payment terms (base64 JSON `PaymentRequired`: `x402Version` 2, `error`, `resource` {url, description, mimeType}, `accepts` [{scheme `exact`, network `eip155:<chainId>`, asset, amount, payTo, maxTimeoutSeconds, extra {name, version}}]) for the team's offered credit pack. Present on an insufficient-credit 402 when the environment offers a pack with a price on a network where the team has a settlement wallet, and on every refused payment, whose reason is `error` (docs/x402.md#refusals). `settlement_pending` (the payment is being settled, or its outcome is not known yet) has empty `accepts`: nothing is to be paid again; retry the same request with the same payment after a while (docs/x402.md#idempotency).",
  paymentResponse:
    "After a request that carried `PAYMENT-SIGNATURE` (x402 v2) and was settled: base64 JSON `SettleResponse` {success: true, transaction, network, payer}, on whatever the request then answers (200; 402 when the pack did not cover the use, with new terms; the request's own 404, 422 or 429). The same value answers a retry of the same request with the same payment (nothing settled or granted again).",
  xPaymentResponse: "The same as `PAYMENT-RESPONSE`, for a request that paid with the x402 v1 `X-PAYMENT` header.",
};

const SETTLEMENT_HEADERS = {
  "PAYMENT-RESPONSE": { description: HEADER_DOC.paymentResponse, schema: { type: "string" } },
  "X-PAYMENT-RESPONSE": { description: HEADER_DOC.xPaymentResponse, schema: { type: "string" } },
} as const;

/**
 * The x402 response headers of POST /events and POST /usage/consume, for their OpenAPI responses: the settlement of
 * a paid request accompanies whatever the request then answers (a 402 when the pack did not cover the use, a 404
 * or 422 of the request itself, a quota's 429), so it is documented on every status; the terms on the 402.
 */
export const X402_RESPONSE_HEADERS = {
  402: { "PAYMENT-REQUIRED": { description: HEADER_DOC.paymentRequired, schema: { type: "string" } }, ...SETTLEMENT_HEADERS },
  other: SETTLEMENT_HEADERS,
} as const;

/** The request headers a client pays with, for the operations' OpenAPI parameters. */
export const X402_REQUEST_HEADERS = [
  {
    name: "PAYMENT-SIGNATURE",
    in: "header",
    required: false,
    description:
      "x402 v2: base64 JSON `PaymentPayload` whose `accepted` is one of the 402's `accepts` and whose `payload` is an EIP-3009 TransferWithAuthorization {authorization {from, to, value, validAfter, validBefore, nonce}, signature}. Verified and settled on chain by the service before the request runs; the pack's credits are granted only after settlement (docs/x402.md).",
    schema: { type: "string" },
  },
  {
    name: "X-PAYMENT",
    in: "header",
    required: false,
    description: "x402 v1: base64 JSON {x402Version: 1, scheme, network, payload}; answered with `X-PAYMENT-RESPONSE`.",
    schema: { type: "string" },
  },
] as const;

/**
 * The statuses the document's completion adds to every operation (src/http/openapi-complete.ts: malformed input,
 * credentials, idempotency, body size and type, errors, an unavailable database). A settled request that then fails
 * with one of them (a 500, a 503) still carries its settlement, so they carry the headers too; the completion keeps a
 * route's own headers beside its shared reply.
 */
const SHARED_STATUSES = ["400", "401", "403", "409", "413", "415", "500", "503"];

/** An operation's documented responses with the x402 response headers on every status (beside any headers it already documents). */
export function withX402Headers<R extends Record<string, object>>(responses: R): R {
  const out: Record<string, object> = {};
  const all: [string, object][] = [
    ...Object.entries(responses),
    ...SHARED_STATUSES.filter((s) => !(s in responses)).map((s) => [s, { description: `Response for status ${s}` }] as [string, object]),
  ];
  for (const [status, response] of all) {
    const headers = status === "402" ? X402_RESPONSE_HEADERS[402] : X402_RESPONSE_HEADERS.other;
    out[status] = { ...response, headers: { ...((response as { headers?: object }).headers ?? {}), ...headers } };
  }
  return out as R;
}

/** The documentation every x402-paid operation's description ends with. */
export const X402_DESCRIPTION = `**x402.** When the environment offers a credit pack (\`offerOnPaymentRequired\`, POST /dashboard/credit-packs) priced on a network where the team has a settlement wallet, the insufficient-credit 402 keeps its body and adds the \`PAYMENT-REQUIRED\` header: x402 v2 terms (scheme \`exact\`, an EIP-3009 authorization of the pack's price to the team's settlement wallet). Retry the same request with \`PAYMENT-SIGNATURE\` (or v1 \`X-PAYMENT\`): the service verifies the authorization (offered terms, exact amount, payee, validity window, signature under the token's EIP-712 domain, unused nonce, balance), settles it on chain itself, grants the pack's credits to the company only after the transaction landed, then runs the request; the answer carries \`PAYMENT-RESPONSE\` (v1: \`X-PAYMENT-RESPONSE\`). A refused payment is the same 402 whose \`PAYMENT-REQUIRED\` \`error\` names the reason; nothing is granted and the request does not run. The same signed payment sent again with the same request answers with the first settlement (settled and granted once); with another request, company, team or environment it is refused as a replay. A payment whose settlement is pending is answered \`settlement_pending\` with empty \`accepts\` (pay nothing more; retry the same request with the same payment later); it completes for the company and credits it claimed, by that retry or the x402.reconcile job. Until it settles, a payment header is a bearer instrument: whoever presents it first gets the credits (the money always reaches the team's wallet), and a header on a request that was not refused still buys. Use \`idempotencyKey\` too, so the retried use itself counts once. See docs/x402.md.`;
