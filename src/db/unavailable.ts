/**
 * The failures that mean "the database cannot be reached right now" (a restart, a failover, a network
 * drop), as opposed to a statement the database refused. The request layer answers them with 503
 * `database_unavailable` and Retry-After (src/http/errors.ts); the pool reconnects on its own.
 */

/** postgres.js's own codes for a connection that closed, was ended or never opened. */
const DRIVER_CODES = new Set(["CONNECTION_CLOSED", "CONNECTION_DESTROYED", "CONNECTION_ENDED", "CONNECT_TIMEOUT"]);
/** The socket's errors on the way to the server. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
/**
 * SQLSTATEs of a server going away or not taking connections: class 08 (connection exception),
 * 57P01-57P03 (administrator or crash shutdown, "the database system is starting up") and 53300
 * (too many connections).
 */
const SERVER_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);

export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string") return false;
  return DRIVER_CODES.has(code) || SOCKET_CODES.has(code) || SERVER_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code);
}

/**
 * postgres.js 3.4.9 writing to a connection's socket after the close handler dropped it (porsager/postgres#1208):
 * thrown from a timer, so no caller can catch it. patches/ fixes the driver; this recognises exactly that
 * throw, should an install have skipped the patch, so the process guard (src/index.ts) logs it instead of
 * stopping the service. Under Bun the message is "null is not an object (evaluating 'socket.write')", under
 * Node "Cannot read properties of null (reading 'write')"; the frame is the driver's `nextWrite`.
 */
export function isDriverWriteAfterClose(error: unknown): boolean {
  if (!(error instanceof TypeError)) return false;
  const stack = error.stack ?? "";
  return (
    /socket\.write|reading 'write'/.test(error.message) && /\bnextWrite\b/.test(stack) && /postgres[\\/](cjs[\\/])?src[\\/]connection\.js/.test(stack)
  );
}
