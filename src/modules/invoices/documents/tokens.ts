/**
 * Download links for an invoice's documents (the PDF, the pain.013 request to pay): the link itself is the
 * credential, so it carries the tenant, the invoice, the document kind and an expiry, signed with HMAC
 * under LINK_SIGNING_SECRET (namespaced by purpose: a link never serves as any other signed value).
 * A link whose signature does not match answers 403 and one past its expiry 410, and neither says
 * anything about the invoice.
 */
import { INVOICE_DOCUMENT_PATH } from "../../../http/credential-paths";
import { signPayload, verifyPayload } from "../../../lib/hash";
import { apiError } from "../../../lib/errors";
import type { Tenant } from "../../../lib/tenant";

export const DOCUMENT_KINDS = ["pdf", "pain013"] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** How long a link works after GET /invoices/{id} hands it out. */
export const DOCUMENT_LINK_TTL_SECONDS = 24 * 3600;
const PURPOSE = "invoice-document";
/** Where the links point: `${origin}${DOCUMENT_PATH}/${token}` (declared with the paths whose credential the request log masks). */
export const DOCUMENT_PATH = INVOICE_DOCUMENT_PATH;

/** Our ids' shape: a link (even one signed with the secret by hand) naming anything else reaches no query. */
const ID_SHAPE = /^[A-Za-z0-9_]{1,64}$/;

interface LinkClaims {
  t: string; // team
  e: Tenant["environment"];
  i: string; // invoice id
  k: DocumentKind;
  x: number; // expiry, unix seconds
}

/** The document a link opens: one kind of one invoice of a tenant. */
export interface LinkedDocument {
  tenant: Tenant;
  invoiceId: string;
  kind: DocumentKind;
}

export function signDocumentToken(
  secret: string,
  { tenant, invoiceId, kind }: LinkedDocument,
  now: Date,
  ttlSeconds = DOCUMENT_LINK_TTL_SECONDS,
): string {
  const claims: LinkClaims = { t: tenant.teamId, e: tenant.environment, i: invoiceId, k: kind, x: Math.floor(now.getTime() / 1000) + ttlSeconds };
  return signPayload(secret, PURPOSE, claims);
}

export const documentUrl = (origin: string, token: string) => `${origin}${DOCUMENT_PATH}/${token}`;

/** What a valid, unexpired link names; throws 403 document_link_invalid or 410 document_link_expired. */
export function verifyDocumentToken(secret: string, token: string, now: Date): { tenant: Tenant; invoiceId: string; kind: DocumentKind } {
  const claims = verifyPayload<LinkClaims>(secret, PURPOSE, token);
  const wellFormed =
    claims &&
    typeof claims.t === "string" &&
    ID_SHAPE.test(claims.t) &&
    (claims.e === "development" || claims.e === "production") &&
    typeof claims.i === "string" &&
    ID_SHAPE.test(claims.i) &&
    (DOCUMENT_KINDS as readonly string[]).includes(claims.k) &&
    Number.isSafeInteger(claims.x);
  if (!wellFormed) throw apiError("document_link_invalid", "This download link is not valid");
  if (claims.x * 1000 <= now.getTime())
    throw apiError("document_link_expired", "This download link has expired; fetch the invoice again for a new one");
  return { tenant: { teamId: claims.t, environment: claims.e }, invoiceId: claims.i, kind: claims.k };
}
