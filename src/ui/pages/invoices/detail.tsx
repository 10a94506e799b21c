/**
 * One invoice: its header and totals (the API's money strings), lines, payments and refunds with their
 * transactions linked to the network's explorer (the API's `explorerUrl`, through linkable()), credit notes,
 * deliveries, the document downloads, and the actions the session's role allows.
 */
import type { Children } from "@kitajs/html";
import { Field, FormError, linkable, OnceKey, Select, Shell, Table, when } from "../../layout";
import type { PageSession } from "../../session";
import { PATH, invoicePath, money, type FormState, type InvoiceDetailView } from "./records";

export interface InvoiceDetailProps {
  session: PageSession;
  invoice: InvoiceDetailView;
  /** what was just done (the `done` of the redirect after a write) */
  done?: string;
  /** the send form refused */
  send?: FormState;
  /** an action the API refused (issuing an empty draft), as it put it */
  error?: string | null;
}

/** What a write's redirect names, as a sentence; anything else prints nothing. */
const DONE: Record<string, string> = {
  created: "Draft created.",
  saved: "Draft saved.",
  issued: "Invoice issued.",
  voided: "Invoice voided.",
  credited: "Credit note created.",
  paid: "Payment recorded.",
  "payment-pending": "The transfer is not verified yet: the service checks it again and applies it once it is final.",
  refunded: "Refund recorded.",
  sent: "Sending queued: see the deliveries below.",
};

/** A transaction hash, linked to its explorer page when the API names an https one. */
function TxLink({ hash, url }: { hash: string; url: string | null }) {
  const href = linkable(url);
  if (!href)
    return (
      <code class="hash" safe>
        {hash}
      </code>
    );
  return (
    <a href={href} rel="noopener noreferrer" target="_blank">
      <code class="hash" safe>
        {hash}
      </code>
      <span class="visually-hidden"> (opens the block explorer)</span>
    </a>
  );
}

function Row({ label, children }: { label: string; children?: Children }) {
  return (
    <div>
      <dt safe>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Section({ id, title, children }: { id: string; title: string; children?: Children }) {
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} safe>
        {title}
      </h2>
      {children}
    </section>
  );
}

export function InvoiceDetailPage({ session, invoice: i, done, send, error }: InvoiceDetailProps) {
  const id = "{id}";
  const may = (method: string, rest: string) => session.may(method, `${PATH}/${id}${rest}`);
  const draft = i.status === "DRAFT";
  const open = i.status === "ISSUED" || i.status === "OVERDUE";
  const canEdit = draft && may("PUT", "");
  const canIssue = draft && may("POST", "/issue");
  const canVoid = (draft || open) && may("POST", "/void");
  const canCredit = (open || i.status === "PAID") && may("POST", "/credit-notes");
  const canPay = open && may("POST", "/payments");
  const canRefund = i.amountPaid !== "0.000000" && session.may("POST", "/invoices/{id}/refunds");
  const canSend = (open || i.status === "PAID") && may("POST", "/send");
  const anyAction = canEdit || canIssue || canVoid || canCredit || canPay || canRefund;
  const notice = done ? DONE[done] : undefined;
  const c = i.currency;
  const customer = i.customerName ?? "—";
  const terms = `${i.paymentTermsDays} days`;
  return (
    <Shell title={`Invoice ${i.number}`} session={session} path={PATH}>
      <p>
        <a href={PATH}>All invoices</a>
      </p>
      <FormError message={error ?? null} />
      {notice ? (
        <p class="notice" role="status" safe>
          {notice}
        </p>
      ) : (
        ""
      )}
      <Section id="summary" title="Summary">
        <dl class="facts">
          <Row label="Number">
            <span safe>{i.number}</span>
          </Row>
          <Row label="Status">
            <span class={`status status-${i.status.toLowerCase()}`} safe>
              {i.status}
            </span>
          </Row>
          <Row label="Customer">
            <span safe>{customer}</span>
          </Row>
          <Row label="Customer email">
            <span safe>{i.customerEmail ?? "—"}</span>
          </Row>
          <Row label="Customer wallet">
            <code safe>{i.customerWallet ?? "—"}</code>
          </Row>
          <Row label="Company">
            <span safe>{i.companyId ?? "—"}</span>
          </Row>
          <Row label="Network">
            <span safe>{i.network ?? "—"}</span>
          </Row>
          <Row label="Description">
            <span safe>{i.description ?? "—"}</span>
          </Row>
          <Row label="Created">
            <span safe>{when(i.createdAt)}</span>
          </Row>
          <Row label="Issued">
            <span safe>{when(i.issuedAt ?? null)}</span>
          </Row>
          <Row label="Payment terms">
            <span safe>{terms}</span>
          </Row>
          <Row label="Due">
            <span safe>{when(i.dueAt)}</span>
          </Row>
          <Row label="Paid">
            <span safe>{when(i.paidAt)}</span>
          </Row>
          <Row label="Voided">
            <span safe>{when(i.voidedAt)}</span>
          </Row>
        </dl>
        <dl class="facts totals">
          <Row label="Subtotal">
            <span safe>{money(i.subtotal, c)}</span>
          </Row>
          <Row label="Tax">
            <span safe>{money(i.taxTotal, c)}</span>
          </Row>
          <Row label="Total">
            <strong safe>{money(i.total, c)}</strong>
          </Row>
          <Row label="Paid">
            <span safe>{money(i.amountPaid, c)}</span>
          </Row>
          <Row label="Credited">
            <span safe>{money(i.amountCredited, c)}</span>
          </Row>
          <Row label="Refunded">
            <span safe>{money(i.amountRefunded, c)}</span>
          </Row>
          <Row label="Outstanding">
            <strong safe>{money(i.amountOutstanding, c)}</strong>
          </Row>
        </dl>
      </Section>

      <Section id="downloads" title="Documents">
        <ul class="downloads">
          <li>
            <a href={invoicePath(i.id, "/pdf")} download="">
              Download PDF
            </a>
          </li>
          <li>
            <a href={invoicePath(i.id, "/pain013")} download="">
              Download ISO 20022 request to pay (pain.013)
            </a>
          </li>
          <li>
            <a href={invoicePath(i.id, "/camt054")} download="">
              Download ISO 20022 payments and refunds (camt.054)
            </a>
          </li>
        </ul>
      </Section>

      {anyAction ? (
        <Section id="actions" title="Actions">
          <div class="actions">
            {canEdit ? <a href={invoicePath(i.id, "/edit")}>Edit draft</a> : ""}
            {canIssue ? (
              <form method="post" action={invoicePath(i.id, "/issue")} class="inline">
                <input type="hidden" name="csrf" value={session.csrfToken} />
                <button type="submit" class="primary">
                  Issue invoice
                </button>
              </form>
            ) : (
              ""
            )}
            {canPay ? <a href={invoicePath(i.id, "/payments/new")}>Record a payment proof</a> : ""}
            {canCredit ? <a href={invoicePath(i.id, "/credit-notes/new")}>Create a credit note</a> : ""}
            {canRefund ? <a href={invoicePath(i.id, "/refunds/new")}>Record a refund</a> : ""}
            {canVoid ? (
              <a href={invoicePath(i.id, "/void")} class="danger-link">
                Void invoice
              </a>
            ) : (
              ""
            )}
          </div>
        </Section>
      ) : (
        ""
      )}

      <Section id="lines" title="Lines">
        <Table
          columns={["Description", "Kind", "Quantity", "Unit amount", "Tax rate", "Subtotal", "Tax", "Total"]}
          empty="No lines yet."
          rows={i.lineItems.map((l) => (
            <tr>
              <td safe>{l.description}</td>
              <td safe>{l.kind}</td>
              <td class="amount" safe>
                {String(l.quantity)}
              </td>
              <td class="amount" safe>
                {l.unitAmount}
              </td>
              <td class="amount" safe>{`${l.taxRate} %`}</td>
              <td class="amount" safe>
                {l.lineSubtotal}
              </td>
              <td class="amount" safe>
                {l.lineTax}
              </td>
              <td class="amount" safe>
                {l.lineTotal}
              </td>
            </tr>
          ))}
        />
      </Section>

      <Section id="payments" title="Payments">
        <Table
          columns={["Paid", "Network", "Transaction", "Applied", "Excess", "Payer"]}
          empty="No payments."
          rows={i.payments.map((p) => (
            <tr>
              <td safe>{when(p.paidAt)}</td>
              <td safe>{p.network}</td>
              <td>
                <TxLink hash={p.txHash} url={p.explorerUrl} />
              </td>
              <td class="amount" safe>
                {money(p.amountApplied, c)}
              </td>
              <td class="amount" safe>
                {money(p.amountExcess, c)}
              </td>
              <td>
                <code class="hash" safe>
                  {p.payer}
                </code>
              </td>
            </tr>
          ))}
        />
      </Section>

      <Section id="credit-notes" title="Credit notes">
        <Table
          columns={["Number", "Created", "Reason", "Credit", "Refund", "Memo"]}
          empty="No credit notes."
          rows={i.creditNotes.map((n) => (
            <tr>
              <td safe>{n.number}</td>
              <td safe>{when(n.createdAt)}</td>
              <td safe>{n.reason}</td>
              <td class="amount" safe>
                {money(n.creditAmount, c)}
              </td>
              <td class="amount" safe>
                {money(n.refundAmount, c)}
              </td>
              <td safe>{n.memo ?? "—"}</td>
            </tr>
          ))}
        />
      </Section>

      <Section id="refunds" title="Refunds">
        <Table
          columns={["Created", "Amount", "Reason", "Network", "Transaction", "To"]}
          empty="No refunds."
          rows={i.refunds.map((r) => (
            <tr>
              <td safe>{when(r.createdAt)}</td>
              <td class="amount" safe>
                {money(r.amount, r.currency)}
              </td>
              <td safe>{r.reason}</td>
              <td safe>{r.network}</td>
              <td>
                <TxLink hash={r.txHash} url={r.explorerUrl} />
              </td>
              <td>
                <code class="hash" safe>
                  {r.recipientWallet}
                </code>
              </td>
            </tr>
          ))}
        />
      </Section>

      <Section id="deliveries" title="Deliveries">
        <Table
          columns={["Queued", "Channel", "To", "Trigger", "Status", "Attempts", "Sent", "Last error"]}
          empty="Not sent yet."
          rows={i.deliveries.map((d) => (
            <tr>
              <td safe>{when(d.createdAt)}</td>
              <td safe>{d.channel}</td>
              <td safe>{d.destination}</td>
              <td safe>{d.trigger}</td>
              <td safe>{d.status}</td>
              <td class="amount" safe>
                {String(d.attempts)}
              </td>
              <td safe>{when(d.sentAt)}</td>
              <td safe>{d.lastError ?? "—"}</td>
            </tr>
          ))}
        />
        {canSend ? (
          <form method="post" action={invoicePath(i.id, "/send")} class="stack" aria-labelledby="send-title">
            <h3 id="send-title">Send again</h3>
            <FormError message={send?.error ?? null} />
            <input type="hidden" name="csrf" value={session.csrfToken} />
            <OnceKey />
            <Select
              name="channel"
              label="Channel"
              options={["email", "webhook"]}
              value={send?.values.channel ?? "email"}
              error={send?.fields.channel}
            />
            <Field
              name="to"
              label="To (optional, email only)"
              type="email"
              value={send?.values.to}
              error={send?.fields.to}
              hint="Default: the invoice's customer email."
            />
            <button type="submit">Send invoice</button>
          </form>
        ) : (
          ""
        )}
      </Section>
    </Shell>
  );
}
