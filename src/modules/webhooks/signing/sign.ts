/**
 * Standard Webhooks signing with the `standardwebhooks` package: `webhook-signature` is `v1,<base64 HMAC-SHA256>`
 * over `${webhook-id}.${webhook-timestamp}.${body}`; during a rotation's overlap it carries the current
 * secret's signature and the previous one's, space-separated, so a receiver holding either verifies.
 */
import { Webhook } from "standardwebhooks";

export interface SignedHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/** `at` is the wall-clock time of the request: receivers refuse a timestamp more than 5 minutes off theirs. */
export function signHeaders(messageId: string, body: string, secrets: readonly string[], at: Date): SignedHeaders {
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(messageId, at, body)).join(" "),
  };
}
