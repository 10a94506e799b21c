/**
 * The least HTTP/1.1 the loader needs: requests serialised to bytes once, and a response framer that
 * reads only the status line and the framing headers (Content-Length, or chunked as a fallback).
 */
export interface RequestTemplate {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
}

const encoder = new TextEncoder();
const latin1 = new TextDecoder("latin1");

export function serialize(t: RequestTemplate, host: string): Uint8Array {
  const body = t.body === undefined ? "" : typeof t.body === "string" ? t.body : JSON.stringify(t.body);
  const bodyBytes = encoder.encode(body);
  const headers = new Headers(t.headers);
  headers.set("host", host);
  if (t.body !== undefined) {
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
    headers.set("content-length", String(bodyBytes.length));
  }
  let head = `${t.method} ${t.path} HTTP/1.1\r\n`;
  headers.forEach((value, name) => (head += `${name}: ${value}\r\n`));
  const headBytes = encoder.encode(head + "\r\n");
  const out = new Uint8Array(headBytes.length + bodyBytes.length);
  out.set(headBytes);
  out.set(bodyBytes, headBytes.length);
  return out;
}

export interface Framed {
  status: number;
  /** Bytes the whole response takes in the buffer. */
  size: number;
  close: boolean;
}

const CR = 13;
const LF = 10;

function headerEnd(b: Uint8Array): number {
  for (let i = 3; i < b.length; i++) {
    if (b[i] === LF && b[i - 1] === CR && b[i - 2] === LF && b[i - 3] === CR) return i + 1;
  }
  return -1;
}

/** End of a chunked body starting at `from`, or -1 while incomplete. Trailers are not expected. */
function chunkedEnd(b: Uint8Array, from: number): number {
  let pos = from;
  for (;;) {
    let size = 0;
    let i = pos;
    for (; i < b.length && b[i] !== CR; i++) {
      const c = b[i]! | 0x20; // lower-case a hex letter
      if (c === 0x3b) break; // ';' starts a chunk extension
      size = size * 16 + (c <= 0x39 ? c - 0x30 : c - 0x57);
    }
    while (i < b.length && b[i] !== LF) i++;
    if (i >= b.length) return -1;
    if (size === 0) return i + 3 <= b.length ? i + 3 : -1; // the empty line after the last chunk
    pos = i + 1 + size + 2;
    if (pos > b.length) return -1;
  }
}

/** The first complete response in `b`, or null while more bytes are needed. */
export function frame(b: Uint8Array): Framed | null {
  const end = headerEnd(b);
  if (end < 0) return null;
  // "HTTP/1.1 200 ": three digits at bytes 9..11.
  const status = (b[9]! - 48) * 100 + (b[10]! - 48) * 10 + (b[11]! - 48);
  const head = latin1.decode(b.subarray(0, end)).toLowerCase();
  const close = head.includes("\r\nconnection: close");
  const cl = head.indexOf("\r\ncontent-length:");
  if (cl >= 0) {
    const size = end + Number.parseInt(head.slice(cl + 17, head.indexOf("\r\n", cl + 2)).trim(), 10);
    return size <= b.length ? { status, size, close } : null;
  }
  if (head.includes("\r\ntransfer-encoding: chunked")) {
    const size = chunkedEnd(b, end);
    return size < 0 ? null : { status, size, close };
  }
  // No body framing (204, 304, or a bodiless error): the headers are the whole response.
  return { status, size: end, close };
}
