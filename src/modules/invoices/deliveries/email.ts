/**
 * The invoice email's words, from the invoice as the API presents it (pure: no clock, no database).
 * Subject "Invoice INV-000001 from <seller>"; a plain-text body and the same content as simple HTML (every
 * value escaped): what is due and when (or that nothing is), the lines and totals with the invoice's six
 * fractional digits, the download link when the service knows its public address, and the seller's footer.
 */
import type { InvoiceView } from "../schemas";

export interface EmailContent {
  invoice: InvoiceView;
  seller: { name: string; footer: string | null };
  /** the signed PDF link and until when it works; null when PUBLIC_BASE_URL is not set */
  download: { url: string; expiresAt: Date } | null;
}

const day = (iso: string | Date) => (typeof iso === "string" ? iso : iso.toISOString()).slice(0, 10);

/** The sentence that says what the customer owes. */
function dueLine(i: InvoiceView): string {
  const due = `${i.amountOutstanding} ${i.currency}`;
  if (i.status === "PAID" || i.amountOutstanding === "0.000000") return `Paid${i.paidAt ? ` on ${day(i.paidAt)}` : ""}: nothing is due.`;
  if (i.status === "OVERDUE") return `Amount due: ${due}, overdue since ${day(i.dueAt!)}.`;
  return `Amount due: ${due}, due on ${day(i.dueAt!)}.`;
}

function totals(i: InvoiceView): [string, string][] {
  const rows: [string, string][] = [
    ["Subtotal", i.subtotal],
    ["Tax", i.taxTotal],
    ["Total", i.total],
  ];
  if (i.amountPaid !== "0.000000") rows.push(["Paid", i.amountPaid]);
  if (i.amountCredited !== "0.000000") rows.push(["Credited", i.amountCredited]);
  rows.push(["Amount due", i.amountOutstanding]);
  return rows.map(([label, amount]) => [label, `${amount} ${i.currency}`]);
}

export function composeInvoiceEmail({ invoice: i, seller, download }: EmailContent): { subject: string; text: string; html: string } {
  const subject = `Invoice ${i.number} from ${seller.name}`;
  const issued = i.issuedAt ? ` on ${day(i.issuedAt)}` : "";
  const intro = `${seller.name} sent you invoice ${i.number}, issued${issued}.`;
  const lines = i.lineItems.map((l) => [l.description, `${l.quantity} x ${l.unitAmount}`, `${l.lineTotal} ${i.currency}`] as const);
  const linkText = download
    ? `Download the invoice (PDF): ${download.url}\n(This link works until ${day(download.expiresAt)}.)`
    : "The invoice is attached as a PDF.";
  const text = [
    intro,
    "",
    dueLine(i),
    "",
    ...lines.map(([d, q, t]) => `${d}: ${q} = ${t}`),
    "",
    ...totals(i).map(([label, amount]) => `${label}: ${amount}`),
    "",
    linkText,
    ...(download ? ["The invoice is also attached as a PDF."] : []),
    ...(seller.footer ? ["", seller.footer] : []),
  ].join("\n");

  const e = escapeHtml;
  const cell = 'style="padding:4px 8px;border-bottom:1px solid #ddd"';
  const right = 'style="padding:4px 8px;border-bottom:1px solid #ddd;text-align:right"';
  const html = `<!doctype html>
<html><body style="font-family:Helvetica,Arial,sans-serif;color:#222">
<p>${e(intro)}</p>
<p><strong>${e(dueLine(i))}</strong></p>
<table style="border-collapse:collapse">
<tr><th ${cell}>Description</th><th ${right}>Quantity x unit</th><th ${right}>Amount</th></tr>
${lines.map(([d, q, t]) => `<tr><td ${cell}>${e(d)}</td><td ${right}>${e(q)}</td><td ${right}>${e(t)}</td></tr>`).join("\n")}
${totals(i)
  .map(([label, amount]) => `<tr><td ${cell} colspan="2">${e(label)}</td><td ${right}>${e(amount)}</td></tr>`)
  .join("\n")}
</table>
${
  download
    ? `<p><a href="${e(download.url)}">Download the invoice (PDF)</a> (this link works until ${e(day(download.expiresAt))}). It is also attached.</p>`
    : "<p>The invoice is attached as a PDF.</p>"
}
${seller.footer ? `<p style="color:#666">${e(seller.footer)}</p>` : ""}
</body></html>`;
  return { subject, text, html };
}

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
