/** OpenAPI descriptions of the invoice routes (docs/invoices.md#invoices says the same at length). */
import { MAX_TAX_PERCENT } from "./compute";

const CREDENTIALS = `Credentials: a secret (\`sk_\`) or restricted (\`rk_\`) key holding \`invoices.read\` (spec rule 8; a secret key without an explicit permission list holds it), or a dashboard session with role \`billing:read\`. Publishable keys, legacy \`api_\` keys and embed tokens get \`403 {error, code}\`: invoices name customers and amounts, so only server keys that can be scoped to invoice reading, and the dashboard, may read them.`;

const MONEY = `Amounts are decimal strings with six fractional digits in the invoice currency (the settlement token's symbol); \`taxRate\` is a percentage with four (\`"7.2500"\`). Every invoice satisfies: \`lineSubtotal = quantity x unitAmount\`, \`lineTax = round(lineSubtotal x taxRate / 100)\` half away from zero once per line, \`total = subtotal + taxTotal\` (sums of the lines), \`amountOutstanding = max(0, total - amountPaid - amountCredited)\`, refunds never above \`amountPaid\`, credits plus refunds never above \`total\`.`;

const DETAIL = `One invoice with its line items, payments, credit notes, refunds and deliveries, plus two download links signed afresh on each read and valid for 24 hours: \`downloadUrl\` (the PDF) and \`iso20022DownloadUrl\` (an ISO 20022 pain.013 creditor payment activation request). The link's signature is its only credential (no bearer needed); a tampered link answers 403 and an expired one 410, neither saying anything about the invoice. The links point at \`PUBLIC_BASE_URL\` when the service has one, else at the origin this request was sent to (behind a proxy with \`TRUST_PROXY=true\`: the first \`X-Forwarded-Proto\` and \`X-Forwarded-Host\`). The answer is \`Cache-Control: private, no-store\`: the links are bearer credentials for a day.

Drafts have a provisional number \`DRAFT-<id>\`, no \`issuedAt\` and a null \`dueAt\`. ${MONEY}

Errors, in the spec's three bodies: 401 and 403 \`{error, code}\`; 404 \`{error}\` for an unknown id or an invoice of another team or environment (indistinguishable), and for an id that cannot be one (not \`in_\` and 1 to 61 letters and digits), never a 400.`;

export const INVOICE_DOCS = {
  list: `The team's invoices in the credential's environment, newest first.

Filters: \`status\` (one of DRAFT, ISSUED, PAID, VOID, OVERDUE; anything else is a 400) and \`q\`, 1 to 200 characters matched case-insensitively as a substring of the invoice number, the customer email or the customer wallet (\`%\` and \`_\` are plain characters). Both together narrow further.

Pagination: \`limit\` (1 to 200, default 50; over 200 is a 400) and \`cursor\` (the previous page's \`nextCursor\`, unchanged, with the same \`status\` and \`q\`: a cursor taken under other filters, or an empty string, is a 400). The spec's body is \`{invoices}\`; \`nextCursor\` is added beside it (null on the last page), so a client that reads only \`invoices\` gets the first page as before.

Each invoice carries its line items. ${MONEY}

${CREDENTIALS}`,
  get: `${DETAIL}

${CREDENTIALS}`,
  creditNotes: `The invoice's credit notes, oldest first: each with its own number (\`CN-000001\`, a gapless series per team and environment apart from invoices), reason, credit part (\`creditAmount\`: lowered what the invoice asks) and refund part (\`refundAmount\`: matches a refund), and lines. Errors as for GET /invoices/{id}: 401/403 \`{error, code}\`, 404 \`{error}\`.

${CREDENTIALS}`,
} as const;

const EXPLORER = `Each payment and refund carries \`explorerUrl\`: its transaction's page on the network's block explorer, from the chain registry's \`explorerTxUrl\` (built in for every built-in network; a \`CHAIN_REGISTRY_FILE\` entry may name one), null when the registry names none.`;

export const DASHBOARD_INVOICE_DOCS = {
  get: `${DETAIL}\n\n${EXPLORER}`,
  write: `A draft invoice: \`currency\` (a settlement token's symbol this environment settles, such as USDC) and \`lineItems\` (at most 200; an empty draft is allowed, but cannot be issued). Each line: \`description\` (1 to 500 characters), \`quantity\` (an integer from 1 to 1,000,000,000), \`unitAmount\` (a decimal string with at most 6 fractional digits, or a JSON number of at most 15 significant digits; negative for a discount line; an item may be negative too, a discount may not be positive) and \`taxRate\` (a percentage with at most 4 fractional digits from 0 to ${MAX_TAX_PERCENT}, as a string or number), optional \`kind\` (\`item\`, or \`discount\`, the default for a negative unit amount). The total may not be negative.

Optional: \`companyId\` (our \`comp_…\` id or yours; its name, email and wallet fill the customer fields left out), \`customerName\`, \`customerEmail\`, \`customerWallet\`, \`network\` (a network this environment settles the currency on), \`planId\` (a plan or add-on of this team and environment), \`description\`, \`metadata\` (an object of at most 50 keys of 1 to 40 characters, at most 16 KiB as JSON), \`paymentTermsDays\` (0 to 365; default the team's invoice settings, else 30) and \`issue\` (true: issue at once, taking the next number).

Bad input is a 400 \`{error, details}\` naming each field (\`body.lineItems[0].unitAmount\`), and nothing is written: first the body's shape (every field of a wrong type or size, named at once), then, once the shape is right, the values' rules (amounts, signs, metadata, currency, network, company, plan, wallet), named together. Unknown fields are refused with the body's shape, as everywhere in this API. Audited (\`invoice.create\`, \`invoice.update\`, \`invoice.issue\`).`,
  replace: `Replaces a draft's fields and lines with the body (the whole draft, as on create; omitted optional fields are cleared). 409 \`invoice_not_draft\` once it is issued or void.`,
  issue: `DRAFT -> ISSUED: the next number of the team's gapless series (\`INV-000001\`, per team and environment; taken in the issuing transaction, so a failed issue leaves no gap, and concurrent issues get consecutive numbers), \`issuedAt\` now, \`dueAt\` after the payment terms. An invoice for nothing (total 0) is PAID at once. Sends \`invoice.issued\`. 409 \`invoice_not_draft\` for an invoice already issued or void, \`invoice_empty\` for a draft without lines.`,
  void: `DRAFT, ISSUED or OVERDUE -> VOID while nothing is paid (after a payment, correct it with a credit note): 409 \`invoice_not_voidable\` otherwise. Voiding a void invoice changes nothing. Sends \`invoice.voided\`. A void invoice keeps its number, so the series stays gapless.`,
  creditNote: `A credit note on an ISSUED, OVERDUE or PAID invoice: \`reason\` (1 to 500 characters), \`amount\` (a decimal string greater than 0: the credit part, which lowers \`amountOutstanding\`; what passes the outstanding amount goes to the company's credit balance), optional \`memo\` and \`lineItems\` (\`[{description, amount}]\` adding up to \`amount\`; default one line, the reason). It takes the next number of the credit-note series. 409: \`invoice_not_creditable\` (a draft or void invoice), \`credit_exceeds_total\` (credits and refunds together would pass the total), \`credit_exceeds_outstanding\` (a credit past the outstanding amount on an invoice without a company to hold the balance). Sends \`credit_note.created\` (and \`invoice.paid\` when nothing is left to pay). Refunds of money paid are recorded by POST /invoices/{id}/refunds, with their own credit note.`,
} as const;
