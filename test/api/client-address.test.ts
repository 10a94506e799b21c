/**
 * The client address the sign-in throttle counts: the TCP peer, or a trusted proxy's last X-Forwarded-For entry;
 * for a request the service makes to itself for a browser (the dashboard's pages calling the API), the browser's.
 */
import { afterAll, expect, test } from "bun:test";
import { withBodyLimit } from "../../src/http/body-limit";
import { clientAddress, onBehalfOf, setPeerAddressLookup } from "../../src/http/client-address";
import { withJsonMediaType } from "../../src/http/json-body";

const peers = new WeakMap<Request, string>();
setPeerAddressLookup((request) => peers.get(request));
afterAll(() => setPeerAddressLookup(null));

const browserRequest = (address: string, headers: Record<string, string> = {}) => {
  const request = new Request("http://h/dashboard/sign-in", { method: "POST", headers });
  peers.set(request, address);
  return request;
};

test("the TCP peer; with TRUST_PROXY the last X-Forwarded-For entry", () => {
  const request = browserRequest("203.0.113.7", { "x-forwarded-for": "198.51.100.1, 192.0.2.9" });
  expect(clientAddress({ trustProxy: false }, request)).toBe("203.0.113.7");
  expect(clientAddress({ trustProxy: true }, request)).toBe("192.0.2.9");
});

test("a request made in process for a browser counts the browser's address, not 'unknown' shared by every browser", () => {
  const browser = browserRequest("203.0.113.7", { "x-forwarded-for": "192.0.2.9" });
  const inner = onBehalfOf(new Request("http://h/api/v1/dashboard/sign-in", { method: "POST" }), browser);
  expect(clientAddress({ trustProxy: false }, inner)).toBe("203.0.113.7");
  expect(clientAddress({ trustProxy: true }, inner)).toBe("192.0.2.9");
  // Made for the inner request in turn: still the browser's.
  expect(clientAddress({ trustProxy: false }, onBehalfOf(new Request("http://h/x"), inner))).toBe("203.0.113.7");
  expect(clientAddress({ trustProxy: false }, new Request("http://h/api/v1/dashboard/sign-in"))).toBe("unknown");
});

test("a request body read whole (chunked) or its media type normalised keeps the client: the copy counts its address", async () => {
  const logger = { info() {}, warn() {}, error() {}, debug() {} } as unknown as Parameters<typeof withBodyLimit>[1];
  const seen: string[] = [];
  const record = (request: Request) => {
    seen.push(clientAddress({ trustProxy: false }, request));
    return new Response(null, { status: 204 });
  };
  const body = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("a=1"));
      controller.close();
    },
  });
  const chunked = new Request("http://h/dashboard/sign-in", { method: "POST", body, headers: { "transfer-encoding": "chunked" } });
  peers.set(chunked, "203.0.113.8");
  await withBodyLimit(1_000, logger, record)(chunked);
  const typed = browserRequest("203.0.113.9", { "content-type": "Application/JSON" });
  await withJsonMediaType(record)(typed);
  expect(seen).toEqual(["203.0.113.8", "203.0.113.9"]);
});
