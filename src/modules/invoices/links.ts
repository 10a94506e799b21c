/**
 * The two download links GET /invoices/{id} hands out (the PDF and the pain.013 request to pay), signed
 * afresh on every read (document-links.ts: HMAC under LINK_SIGNING_SECRET, 24 h). They point at
 * PUBLIC_BASE_URL when it is set (the address customers reach, behind a proxy or a CDN), else at the origin
 * the request came to: the links are handed only to the authenticated caller, so a forged Host header only
 * misleads the one who sent it.
 */
import type { Tenant } from "../../lib/tenant";
import { documentUrl, signDocumentToken } from "./document-links";

export interface DocumentLinks {
  downloadUrl: string;
  iso20022DownloadUrl: string;
}

export interface LinkConfig {
  linkSigningSecret: string;
  /** scheme://host[:port] without a path; null: the request's origin */
  publicBaseUrl: string | null;
}

export function documentLinks(config: LinkConfig, requestUrl: string, tenant: Tenant, invoiceId: string, now: Date): DocumentLinks {
  const origin = config.publicBaseUrl ?? new URL(requestUrl).origin;
  const link = (kind: "pdf" | "pain013") => documentUrl(origin, signDocumentToken(config.linkSigningSecret, tenant, invoiceId, kind, now));
  return { downloadUrl: link("pdf"), iso20022DownloadUrl: link("pain013") };
}
