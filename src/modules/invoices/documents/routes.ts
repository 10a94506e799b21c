/**
 * Where invoice documents are fetched:
 * - GET /invoice-documents/{token}: the link GET /invoices/{id} hands out (`downloadUrl`, `iso20022DownloadUrl`).
 *   No credential: the HMAC-signed token is the credential, naming tenant, invoice, document and expiry
 *   (documents/tokens.ts), so the link works from an email or a browser. It is public in the access model
 *   (like GET /health: a public row of ROUTES in src/auth/access.ts).
 * - GET /dashboard/invoices/{id}/camt054: every payment and refund of an invoice as one camt.054 (billing:read).
 * Documents are rendered on each request from the invoice as it is now, and never cached on the way
 * (`Cache-Control: private, no-store`): a link may outlive the state it was handed out in.
 */
import { InvoiceParams } from "../schemas";
import { Elysia, t } from "elysia";
import type { Sql } from "../../../db/client";
import { authPlugin, type AuthDeps } from "../../../http/auth";
import type { Clock } from "../../../lib/clock";
import { ApiError } from "../../../lib/errors";
import { DOCUMENT_LINK_TTL_SECONDS, verifyDocumentToken } from "./tokens";
import { camt054 } from "./camt054";
import { PEGGED_TOKENS } from "./iso-currency";
import { pain013 } from "./pain013";
import { invoicePdf } from "./pdf";
import { loadDocumentSource } from "./source";

type RouteDeps = AuthDeps & { sql: Sql; clock: Clock; config: { linkSigningSecret: string } };

/** Far above any link's token (about 170 characters), far below what an HMAC should be asked to hash per request. */
const TOKEN_MAX_LENGTH = 1024;
const NO_STORE = { "cache-control": "private, no-store", "x-content-type-options": "nosniff" };
const TAGS = ["Invoices"];
const PEGS = PEGGED_TOKENS.map(([token, ccy]) => `${token} -> ${ccy}`).join(", ");
const ISO_MAPPING = `Currency: \`Ccy\` is the token's peg (${PEGS}); a token without one (ETH, XLM, SOL) is XXX, ISO 4217's "no currency", with the token named in the remittance text. Amounts at the schema's 5 fractional digits (half away from zero), the exact six-digit amount in the text beside them. Wallets are accounts: abbreviated in \`Othr/Id\` (34 characters), whole in \`Prxy/Id\`, the network as scheme and agent.`;

/** A file name for Content-Disposition: the invoice number, kept to characters that need no quoting rules. */
const fileName = (number: string, suffix: string) => `${number.replace(/[^A-Za-z0-9._-]/g, "_")}${suffix}`;

const document = (body: Uint8Array<ArrayBuffer> | string, type: string, name: string, disposition: "inline" | "attachment") =>
  new Response(body, { headers: { ...NO_STORE, "content-type": type, "content-disposition": `${disposition}; filename="${name}"` } });

/** Refusals keep the no-store header too: a 403 or 410 for a link must not be cached either. */
async function uncached(work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof ApiError) throw new ApiError(e.code, e.message, e.details, { ...e.headers, ...NO_STORE });
    throw e;
  }
}

// Documented in `detail.responses` rather than `response` schemas: the generator replaces a route's own
// responses with the schemas' (always JSON), and a document is not JSON.
const jsonError = (schema: "Error" | "CodedError" | "ValidationError", description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: `#/components/schemas/${schema}` } } },
});
const PDF_CONTENT = { "application/pdf": { schema: { type: "string" as const, format: "binary" } } };
const XML_CONTENT = { "application/xml": { schema: { type: "string" as const, description: "ISO 20022 XML (UTF-8)" } } };

export function invoiceDocumentRoutes(deps: RouteDeps) {
  return new Elysia()
    .use(authPlugin(deps))
    .get(
      "/invoice-documents/:token",
      ({ params }) =>
        uncached(async () => {
          const now = new Date(deps.clock.now());
          const link = verifyDocumentToken(deps.config.linkSigningSecret, params.token, now);
          const source = await loadDocumentSource(deps.sql, link.tenant, link.invoiceId);
          const number = source.invoice.number;
          if (link.kind === "pdf") return document(await invoicePdf(source), "application/pdf", fileName(number, ".pdf"), "inline");
          return document(pain013(source, now), "application/xml; charset=utf-8", fileName(number, ".pain013.xml"), "inline");
        }),
      {
        params: t.Object({
          token: t.String({ maxLength: TOKEN_MAX_LENGTH, description: "The signed token of a `downloadUrl` or `iso20022DownloadUrl`" }),
        }),
        detail: {
          tags: TAGS,
          summary: "Download an invoice document by its signed link (no credential: the link is the credential)",
          description: `The links of GET /invoices/{id}: \`downloadUrl\` serves the PDF (application/pdf, \`Content-Disposition: inline; filename="INV-000001.pdf"\`), \`iso20022DownloadUrl\` a pain.013.001.08 creditor payment activation request (application/xml). A link is an HMAC-SHA256-signed token naming the team, environment, invoice, document kind and expiry (${DOCUMENT_LINK_TTL_SECONDS / 3600} h after it was handed out); fetch the invoice again for a fresh one. The document is rendered from the invoice as it is at download time. Responses are \`Cache-Control: private, no-store\`. Errors: 403 \`document_link_invalid\` for a token that does not verify (tampered, signed by another secret, or not a document link), 410 \`document_link_expired\` past its expiry; neither says anything about the invoice. 404 for a valid link whose invoice no longer exists. pain.013 mapping: ${ISO_MAPPING}`,
          responses: {
            200: { description: "The document", content: { ...PDF_CONTENT, ...XML_CONTENT } },
            400: jsonError("ValidationError", `A token longer than ${TOKEN_MAX_LENGTH} characters (\`details["path.token"]\`); no link is`),
            403: jsonError("CodedError", "`document_link_invalid`: the token does not verify"),
            404: jsonError("Error", "A valid link whose invoice no longer exists"),
            410: jsonError("CodedError", "`document_link_expired`: past the link's expiry"),
          },
        },
      },
    )
    .get(
      "/dashboard/invoices/:id/camt054",
      async ({ principal, params }) => {
        const source = await loadDocumentSource(deps.sql, principal, params.id);
        const xml = camt054(source, new Date(deps.clock.now()));
        return document(xml, "application/xml; charset=utf-8", fileName(source.invoice.number, ".camt054.xml"), "attachment");
      },
      {
        access: true,
        params: InvoiceParams,
        detail: {
          tags: TAGS,
          summary: "Export an invoice's payments and refunds as ISO 20022 camt.054",
          description: `A camt.054.001.08 Bank to Customer Debit/Credit Notification for the invoice's settlement wallet: one booked credit entry per payment, one debit entry per refund, each with the whole transaction hash and network in \`AddtlNtryInf\` and \`AddtlTxInf\` (references hold at most 35 characters), the invoice number as \`EndToEndId\`, the exact six-digit amounts and the token amount in base units in the text. An invoice without payments gives a notification without entries. ${ISO_MAPPING}`,
          responses: { 200: { description: "The camt.054 document", content: XML_CONTENT }, 404: jsonError("Error", "No invoice of this id") },
        },
      },
    );
}
