/** Route descriptions for the OpenAPI document: the decisions the spec leaves to us. */
import { MAX_ATTEMPTS, RETRY_OFFSETS_MS } from "./deliveries/schedule";

const offsets = RETRY_OFFSETS_MS.map((ms) => (ms < 60_000 ? `${ms / 1000} s` : ms < 3_600_000 ? `${ms / 60_000} min` : `${ms / 3_600_000} h`)).join(
  ", ",
);

export const DOCS = {
  create: `The URL must be https (http only where the operator set WEBHOOK_ALLOW_HTTP), name a host, carry no user or password, and be at most 2048 characters; an IP address of a private, loopback, link-local or reserved range is refused (unless WEBHOOK_ALLOW_PRIVATE_ADDRESSES), and a host name is checked against every address it resolves to at each attempt.
\`eventTypes\` empty (the default) subscribes to every event type; each must be in GET /dashboard/webhooks/event-types.
The response (\`{data}\`: the endpoint's fields plus \`secret\`, as a created API key's carry \`key\`) carries the signing secret (\`whsec_\` + 32 random bytes, base64), for the standardwebhooks libraries. It is stored encrypted and shown again only by GET /dashboard/webhooks/endpoints/{id}/secret.

Deliveries follow Standard Webhooks: headers \`webhook-id\` (the message id, the same on every attempt and replay), \`webhook-timestamp\` and \`webhook-signature\` (\`v1,<base64>\`, signed afresh on each attempt), body \`{type, timestamp, data}\`. Any 2xx within 15 s delivers. Otherwise it is retried ${MAX_ATTEMPTS - 1} times, about ${offsets} after the first attempt (each gap +/-10%). Redirects are not followed (a 3xx fails the attempt). A 410 disables the endpoint at once; so does a delivery whose every attempt failed with nothing delivered to the endpoint since its first attempt, and the operator is told (GET /dashboard/webhooks/notifications).`,
  update:
    "Omitted fields keep their value. `enabled: true` re-enables a disabled endpoint and clears `disabledReason`; deliveries skipped while it was disabled are not resent (replay them). `enabled: false` stops its pending deliveries (they are marked skipped when their attempt comes).",
  rotate:
    "Makes a new secret current and returns it (`{data}`: the endpoint plus `secret`). The previous one keeps signing beside it for `overlapSeconds` (default 86400, at most 604800): every delivery in the overlap carries both signatures, space-separated in `webhook-signature`, so the receiver can switch secrets without losing one. After the overlap only the new secret signs. Rotating again during an overlap keeps only the secret current until then.",
  replay:
    "A new delivery of the same message (same `webhook-id` and body, so a receiver that deduplicates on webhook-id ignores it if it had it), its first attempt queued now and retried on the usual schedule. The endpoint must be enabled (409 otherwise). The answer is the new delivery as GET /dashboard/webhooks/deliveries/{id} gives it: `{data}` with the delivery's fields and `attemptLog`.",
};
