/**
 * The request-body limit (BODY_LIMIT_BYTES), answered in the spec's shape (413 {error}) however the body
 * arrives: a declared Content-Length over the limit is refused unread, a body sent without one (chunked)
 * is read up to the limit before anything parses it. Bun refuses a body over its own
 * `maxRequestBodySize` natively, with an empty 413 that no handler sees, so Bun's limit is only a far
 * backstop (`bunBodyBackstop`).
 */
import type { Logger } from "../lib/logger";
import { apiError } from "../lib/errors";
import { onBehalfOf } from "./client-address";
import { errorResponse } from "./errors";
import { logRequest, requestState } from "./request-context";

/** Bun's own limit: far above ours, so that only absurd declared lengths meet Bun's empty 413. */
export const bunBodyBackstop = (limitBytes: number) => Math.max(limitBytes * 4, 64 * 1024 * 1024);

type Handler = (request: Request) => Response | Promise<Response>;

export function withBodyLimit(limitBytes: number, logger: Logger, handle: Handler): Handler {
  // Answered before Elysia sees the request, so its request log is written here.
  const tooLarge = (request: Request) => {
    const response = errorResponse(apiError("payload_too_large", `Request body exceeds ${limitBytes} bytes`), requestState(request).requestId);
    logRequest(logger, request, 413);
    return response;
  };
  // Synchronous unless a body arrives without a length: a GET pays no promise here.
  return (request) => {
    const declared = request.headers.get("content-length");
    if (declared !== null) return Number(declared) > limitBytes ? tooLarge(request) : handle(request);
    if (request.body === null) return handle(request);
    return readChunked(request);
  };

  async function readChunked(request: Request): Promise<Response> {
    requestState(request); // the request's clock starts before its body is read, as its log line's duration says
    const reader = request.body!.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limitBytes) {
        await reader.cancel();
        return tooLarge(request);
      }
      chunks.push(value);
    }
    const headers = new Headers(request.headers);
    headers.delete("transfer-encoding");
    headers.set("content-length", String(size));
    // The copy keeps its client: Bun knows the peer address of the request it received, not of a copy.
    return handle(onBehalfOf(new Request(request, { body: Bun.concatArrayBuffers(chunks), headers }), request));
  }
}
