/**
 * Request paths that carry a credential, and how the request log writes them (request-context.ts). An invoice
 * document link's signed token is all it takes to download the invoice (modules/invoices/documents/tokens.ts,
 * which builds its links on this path), so a log line keeps the route and drops the token. Matched on the
 * normalized path (escapes decoded, repeated slashes as one, any case), whatever the method or answer: a HEAD
 * from a link scanner, a 404, or `/api/v1//Invoice-Documents/<token>` refused as malformed carries the same token.
 * Any other segment that looks like a credential (a key, an embed or session token, a JWT, a long opaque
 * string) is masked too: a caller who pastes a credential into a URL must not find it in our logs.
 */
export const INVOICE_DOCUMENT_PATH = "/api/v1/invoice-documents";

const CREDENTIAL_PATHS = [`${INVOICE_DOCUMENT_PATH}/`];

const MASK = ":token";
/** Key and token prefixes (src/auth/key-format.ts, invitations, sign-in links), a JWT's header, or 64+ opaque characters. */
const CREDENTIAL_SEGMENT = /^(?:(?:sk|rk|pk)_|api_|be_tok_|dsess_|dinv_|eyJ)|^[A-Za-z0-9_~.=+-]{64,}$/;

function decoded(segment: string): string {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The path as logged: normalized, with a credential in it replaced by `:token`. */
export function loggedPath(path: string): string {
  const normal = `/${path
    .split("/")
    .filter((s) => s !== "")
    .map(decoded)
    .join("/")}`;
  const lower = normal.toLowerCase();
  for (const prefix of CREDENTIAL_PATHS) if (lower.startsWith(prefix)) return `${prefix}${MASK}`;
  return normal
    .split("/")
    .map((s) => (CREDENTIAL_SEGMENT.test(s) ? MASK : s))
    .join("/");
}
