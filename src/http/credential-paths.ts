/**
 * Request paths that end in a credential, and how the request log writes them (request-context.ts). An invoice
 * document link's signed token is all it takes to download the invoice (modules/invoices/document-links.ts,
 * which builds its links on this path), so a log line keeps the route and drops the token. Matched by prefix,
 * whatever the method or answer: a HEAD from a link scanner or a 404 carries the same token.
 */
export const INVOICE_DOCUMENT_PATH = "/api/v1/invoice-documents";

const CREDENTIAL_PATHS = [`${INVOICE_DOCUMENT_PATH}/`];

/** The path as logged: a credential in it replaced by `:token`. */
export function loggedPath(path: string): string {
  for (const prefix of CREDENTIAL_PATHS) if (path.startsWith(prefix)) return `${prefix}:token`;
  return path;
}
