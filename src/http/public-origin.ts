/**
 * The address a client reached this service at, for the links an answer hands out (an invoice's documents, an
 * invitation, an x402 resource): PUBLIC_BASE_URL when it is set (the address customers reach, behind a proxy or a
 * CDN). Else the origin the request came to: behind a proxy that terminates TLS (TRUST_PROXY=true, as
 * ./client-address.ts trusts it) that is the one X-Forwarded-Proto and X-Forwarded-Host name (their first value:
 * the one the client asked for), since the request itself arrived over plain HTTP at an inner address; without
 * TRUST_PROXY those headers are ignored. The links go only to the caller, so a forged Host or X-Forwarded-Host
 * header only misleads the one who sent it.
 */
export interface OriginConfig {
  /** scheme://host[:port] without a path; null: the request's origin */
  publicBaseUrl: string | null;
  /** the service is behind a proxy that sets X-Forwarded-* (TRUST_PROXY) */
  trustProxy: boolean;
}

// host[:port]: a DNS name or IPv4 address, or an IPv6 address in brackets, and an optional port.
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

const firstValue = (header: string | null) => header?.split(",")[0]?.trim() || undefined;

/** Where the links point for this request (a CLI has no request: its `url` is this machine's API). */
export function linkOrigin(config: OriginConfig, request: { url: string; headers?: Headers }): string {
  if (config.publicBaseUrl) return config.publicBaseUrl;
  const own = new URL(request.url);
  if (!config.trustProxy || !request.headers) return own.origin;
  const proto = firstValue(request.headers.get("x-forwarded-proto"))?.toLowerCase();
  const host = firstValue(request.headers.get("x-forwarded-host"));
  const scheme = proto === "https" || proto === "http" ? proto : own.protocol.slice(0, -1);
  const port = host ? Number(host.match(/:(\d+)$/)?.[1] ?? 0) : 0;
  return new URL(`${scheme}://${host && HOST.test(host) && port <= 65535 ? host : own.host}`).origin;
}
