/**
 * The client's address, for the sign-in throttle. By default the TCP peer's (set by the server in
 * src/index.ts). Behind a reverse proxy every request would share the proxy's address, so TRUST_PROXY=true
 * takes the last entry of X-Forwarded-For instead: the one the proxy in front of us appended, which a
 * client cannot forge (entries a client sends itself come before it). Set it only when such a proxy
 * exists, or anyone could pick their own address.
 */
import { requestState } from "./request-context";

export function clientAddress(config: { trustProxy: boolean }, request: Request): string {
  if (config.trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for");
    const last = forwarded?.split(",").at(-1)?.trim();
    if (last) return last.slice(0, 100);
  }
  return requestState(request).socketAddress ?? "unknown";
}
