/**
 * The two download links GET /invoices/{id} hands out (the PDF and the pain.013 request to pay), signed
 * afresh on every read (documents/tokens.ts: HMAC under LINK_SIGNING_SECRET, 24 h), at the origin
 * src/http/public-origin.ts names (PUBLIC_BASE_URL, or the one a trusted proxy reports).
 *
 * The links are bearer credentials for a day: every answer carrying them is `Cache-Control: private,
 * no-store` (NO_STORE), so no browser or shared cache keeps them.
 */
import type { Tenant } from "../../../lib/tenant";
import type { OriginConfig } from "../../../http/public-origin";
import { documentUrl, signDocumentToken } from "./tokens";

export interface DocumentLinks {
  downloadUrl: string;
  iso20022DownloadUrl: string;
}

export interface LinkConfig extends OriginConfig {
  linkSigningSecret: string;
}

/** The header of answers that carry the links. */
export const NO_STORE = { "cache-control": "private, no-store" } as const;

/** The links of an invoice's documents (`invoice`: its tenant and id), signed at `now`. */
export function documentLinks(config: LinkConfig, origin: string, invoice: { tenant: Tenant; invoiceId: string }, now: Date): DocumentLinks {
  const link = (kind: "pdf" | "pain013") => documentUrl(origin, signDocumentToken(config.linkSigningSecret, { ...invoice, kind }, now));
  return { downloadUrl: link("pdf"), iso20022DownloadUrl: link("pain013") };
}
