/** Checks on what an operator gives an endpoint: its URL and its event filter. Pure. */
import { apiError } from "../../../lib/errors";
import { ipLiteral, isPublicAddress } from "../../../lib/ip-address";
import { SUBSCRIBABLE_EVENT_TYPES } from "../event-types";
import { MAX_URL_LENGTH } from "./schemas";

export interface UrlRules {
  webhookAllowHttp: boolean;
  webhookAllowPrivateAddresses: boolean;
}

const invalid = (field: string, why: string) => apiError("validation_failed", "Validation failed", { [field]: why });

/**
 * https (http only with WEBHOOK_ALLOW_HTTP), a host, no user or password (they would be sent in clear to
 * anyone reading the dashboard and belong in a signed request anyway), at most 2048 characters, and no IP
 * literal of a private range unless allowed. A DNS name is checked at each attempt, against what it resolves to then.
 */
export function checkUrl(raw: string, rules: UrlRules, field = "body.url"): string {
  if (raw.length > MAX_URL_LENGTH) throw invalid(field, `At most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(field, "Not a URL");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && rules.webhookAllowHttp))
    throw invalid(field, rules.webhookAllowHttp ? "Must be an http or https URL" : "Must be an https URL");
  if (!url.hostname) throw invalid(field, "Must name a host");
  if (url.username || url.password) throw invalid(field, "Must not carry a user name or password");
  const literal = ipLiteral(url.hostname);
  if (literal && !rules.webhookAllowPrivateAddresses && !isPublicAddress(literal))
    throw invalid(field, "Must not be a private, loopback, link-local or reserved address");
  return url.href;
}

/** Unique names from the one list (src/modules/webhooks/event-types.ts); `webhook.test` is sent whatever the filter. */
export function checkEventTypes(types: readonly string[], field = "body.eventTypes"): string[] {
  const unknown = types.filter((name) => !(SUBSCRIBABLE_EVENT_TYPES as readonly string[]).includes(name));
  if (unknown.length) throw invalid(field, `Unknown event type: ${unknown.join(", ")}`);
  return [...new Set(types)];
}

/**
 * An endpoint URL as the audit log keeps it: scheme, host and port only. Many receivers carry a bearer
 * token in the path or query (chat-style incoming hooks), and the audit log is read by roles that may not
 * see webhook endpoints.
 */
export const auditedUrl = (url: string) => `${new URL(url).origin}/…`;
