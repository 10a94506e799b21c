/**
 * The client's address, for the sign-in throttle. By default the TCP peer's (looked up through the server
 * src/index.ts registers). Behind a reverse proxy every request would share the proxy's address, so TRUST_PROXY=true
 * takes the last entry of X-Forwarded-For instead: the one the proxy in front of us appended, which a
 * client cannot forge (entries a client sends itself come before it). Set it only when such a proxy
 * exists, or anyone could pick their own address.
 */
/** How the running server finds a request's TCP peer (Bun's `server.requestIP`); unset under app.handle in tests. */
let peerOf: ((request: Request) => string | undefined) | null = null;

/**
 * Set once by the server (src/index.ts). Asked only when an address is needed (the sign-in throttle),
 * not on every request: `requestIP` is a native call that cost ~1 µs on every /check.
 */
export function setPeerAddressLookup(lookup: ((request: Request) => string | undefined) | null): void {
  peerOf = lookup;
}

/** Requests the service makes to itself for a client (the dashboard's pages calling the API), by the client's request. */
const madeFor = new WeakMap<Request, Request>();

/** Marks `inner` as made for `client`, so the sign-in throttle counts the client's address, not the service's own. */
export function onBehalfOf(inner: Request, client: Request): Request {
  madeFor.set(inner, madeFor.get(client) ?? client);
  return inner;
}

export function clientAddress(config: { trustProxy: boolean }, made: Request): string {
  const request = madeFor.get(made) ?? made;
  if (config.trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for");
    const last = forwarded?.split(",").at(-1)?.trim();
    if (last) return last.slice(0, 100);
  }
  return peerOf?.(request) ?? "unknown";
}
