/**
 * One webhook request, guarded against server-side request forgery. The host is resolved here, every
 * address it resolves to is checked (src/lib/ip-address.ts) unless WEBHOOK_ALLOW_PRIVATE_ADDRESSES is set,
 * and the request goes to the checked address itself (the URL's host kept in the Host header and, for
 * https, as the TLS server name the certificate is verified against), so a DNS answer that changes between
 * the check and the connection (DNS rebinding) cannot redirect it. Redirects are never followed: a 3xx
 * is a failed attempt. What is left: an HTTP(S) proxy configured for the process (HTTP_PROXY and the like)
 * connects on our behalf, to the checked address.
 */
import { ipLiteral, isPublicAddress } from "../../../lib/ip-address";
import type { AttemptOutcome } from "./repo";

export interface OutboundOptions {
  allowPrivateAddresses: boolean;
  timeoutMs: number;
}

const EXCERPT_BYTES = 1024;
const ERROR_CHARS = 500;

/** Why a request may not be sent to this URL's host; null when its address was checked and chosen. */
export async function resolveChecked(url: URL, allowPrivate: boolean): Promise<{ address: string } | { refused: string }> {
  const literal = ipLiteral(url.hostname);
  let addresses: string[];
  if (literal) addresses = [literal];
  else {
    try {
      addresses = (await Bun.dns.lookup(url.hostname, { family: 0 })).map((a) => a.address);
    } catch (error) {
      return { refused: `Could not resolve ${url.hostname}: ${(error as Error).message}` };
    }
  }
  if (addresses.length === 0) return { refused: `${url.hostname} has no address` };
  const refused = allowPrivate ? [] : addresses.filter((a) => !isPublicAddress(a));
  if (refused.length) return { refused: `Refused: ${url.hostname} resolves to a private or reserved address (${refused.join(", ")})` };
  return { address: addresses[0]! };
}

async function excerpt(response: Response): Promise<string | null> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const bytes = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES);
  return bytes.length ? new TextDecoder().decode(bytes) : null;
}

const truncate = (text: string) => (text.length > ERROR_CHARS ? `${text.slice(0, ERROR_CHARS)}…` : text);

/** POSTs `body` to `rawUrl` with `headers`; never throws: a refusal or a network failure is an outcome with `error`. */
export async function postWebhook(rawUrl: string, body: string, headers: Record<string, string>, o: OutboundOptions): Promise<AttemptOutcome> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const url = new URL(rawUrl);
  const target = await resolveChecked(url, o.allowPrivateAddresses);
  if ("refused" in target) return { statusCode: null, latencyMs: latency(), error: truncate(target.refused), responseExcerpt: null };
  const host = target.address.includes(":") ? `[${target.address}]` : target.address;
  const direct = `${url.protocol}//${host}${url.port ? `:${url.port}` : ""}${url.pathname}${url.search}`;
  try {
    const response = await fetch(direct, {
      method: "POST",
      headers: { ...headers, host: url.host, "content-type": "application/json", "user-agent": "billing-webhooks/1" },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(o.timeoutMs),
      ...(url.protocol === "https:" && !ipLiteral(url.hostname) ? { tls: { serverName: url.hostname } } : {}),
    });
    const text = await excerpt(response);
    const redirected = response.status >= 300 && response.status < 400;
    return {
      statusCode: response.status,
      latencyMs: latency(),
      error: redirected ? truncate(`Redirect not followed (Location: ${response.headers.get("location") ?? "none"})`) : null,
      responseExcerpt: text,
    };
  } catch (error) {
    const e = error as Error;
    const message = e.name === "TimeoutError" ? `Timed out after ${o.timeoutMs} ms` : `${e.name}: ${e.message}`;
    return { statusCode: null, latencyMs: latency(), error: truncate(message), responseExcerpt: null };
  }
}
