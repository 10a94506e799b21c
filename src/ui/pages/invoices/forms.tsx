/**
 * The invoice forms: a draft (new or edited), the void confirmation, a credit note, a payment proof, a refund.
 * A refusal comes back in the same form with the API's message beside each field it names and what was typed kept.
 */
import { Field, FormError, OnceKey, Shell } from "../../layout";
import type { PageSession } from "../../session";
import { PATH, invoicePath, money, type FormState, type InvoiceView } from "./records";

/** Rows of lines a draft form offers: its lines and two empty ones, at least three, at most 50. */
export const MAX_LINE_ROWS = 50;
export const lineRows = (lines: number) => Math.min(MAX_LINE_ROWS, Math.max(3, lines + 2));

/** A draft invoice's fields as a form holds them (the API's names: `lineItems[0].unitAmount`). */
export function draftValues(i: InvoiceView): Record<string, string> {
  const values: Record<string, string> = {
    currency: i.currency,
    companyId: i.companyId ?? "",
    customerName: i.customerName ?? "",
    customerEmail: i.customerEmail ?? "",
    customerWallet: i.customerWallet ?? "",
    network: i.network ?? "",
    description: i.description ?? "",
    paymentTermsDays: String(i.paymentTermsDays),
  };
  i.lineItems.forEach((l, n) => {
    values[`lineItems[${n}].description`] = l.description;
    values[`lineItems[${n}].quantity`] = String(l.quantity);
    values[`lineItems[${n}].unitAmount`] = l.unitAmount;
    values[`lineItems[${n}].taxRate`] = l.taxRate;
  });
  return values;
}

const LINE_FIELDS = [
  ["description", "Description"],
  ["quantity", "Quantity"],
  ["unitAmount", "Unit amount"],
  ["taxRate", "Tax rate (%)"],
] as const;

export interface DraftFormProps {
  session: PageSession;
  /** the draft being edited; absent: a new one */
  invoice?: InvoiceView;
  form: FormState;
  rows: number;
}

export function DraftFormPage({ session, invoice, form, rows }: DraftFormProps) {
  const v = form.values;
  const f = form.fields;
  const action = invoice ? invoicePath(invoice.id, "/edit") : PATH;
  const title = invoice ? `Edit draft ${invoice.number}` : "New draft invoice";
  const back = invoice ? invoicePath(invoice.id) : PATH;
  return (
    <Shell title={title} session={session} path={PATH}>
      <FormError message={form.error} />
      <form method="post" action={action} class="stack draft-form">
        <input type="hidden" name="csrf" value={session.csrfToken} />
        <input type="hidden" name="rows" value={String(rows)} />
        {invoice ? "" : <OnceKey />}
        <fieldset>
          <legend>Invoice</legend>
          <Field name="currency" label="Currency" value={v.currency} error={f.currency} hint="A settlement token's symbol, such as USDC." required />
          <Field
            name="network"
            label="Network (optional)"
            value={v.network}
            error={f.network}
            hint="A network this environment settles the currency on."
          />
          <Field name="paymentTermsDays" label="Payment terms in days (optional)" value={v.paymentTermsDays} error={f.paymentTermsDays} />
          <Field name="description" label="Description (optional)" value={v.description} error={f.description} />
        </fieldset>
        <fieldset>
          <legend>Customer</legend>
          <Field
            name="companyId"
            label="Company id (optional)"
            value={v.companyId}
            error={f.companyId}
            hint="Its name, email and wallet fill the fields left empty."
          />
          <Field name="customerName" label="Customer name (optional)" value={v.customerName} error={f.customerName} />
          <Field name="customerEmail" label="Customer email (optional)" type="email" value={v.customerEmail} error={f.customerEmail} />
          <Field name="customerWallet" label="Customer wallet (optional)" value={v.customerWallet} error={f.customerWallet} />
        </fieldset>
        <FormError message={f.lineItems ?? null} />
        {Array.from({ length: rows }, (_, n) => (
          <fieldset class="line">
            <legend safe>{`Line ${n + 1}`}</legend>
            {LINE_FIELDS.map(([name, label]) => {
              const key = `lineItems[${n}].${name}`;
              return <Field name={key} label={`${label}, line ${n + 1}`} value={v[key]} error={f[key]} />;
            })}
          </fieldset>
        ))}
        <p class="hint">Empty lines are left out. A negative unit amount is a discount.</p>
        <div class="actions">
          <button type="submit" class="primary">
            Save draft
          </button>
          <a href={back}>Cancel</a>
        </div>
      </form>
    </Shell>
  );
}

/** The confirmation step before a void: what happens, and that it cannot be undone. */
export function VoidPage({ session, invoice, error }: { session: PageSession; invoice: InvoiceView; error?: string | null }) {
  const total = money(invoice.total, invoice.currency);
  return (
    <Shell title={`Void invoice ${invoice.number}`} session={session} path={PATH}>
      <FormError message={error ?? null} />
      <p>
        Void <strong safe>{invoice.number}</strong> (<span safe>{invoice.customerName ?? invoice.customerEmail ?? "no customer"}</span>,{" "}
        <span safe>{total}</span>)? It stops asking for payment and keeps its number. This cannot be undone; once something is paid, correct an
        invoice with a credit note instead.
      </p>
      <form method="post" action={invoicePath(invoice.id, "/void")} class="actions">
        <input type="hidden" name="csrf" value={session.csrfToken} />
        <button type="submit" class="danger">
          Void invoice
        </button>
        <a href={invoicePath(invoice.id)}>Cancel</a>
      </form>
    </Shell>
  );
}

interface ActionFormProps {
  session: PageSession;
  invoice: InvoiceView;
  form: FormState;
}

function InvoiceLine({ invoice }: { invoice: InvoiceView }) {
  const outstanding = money(invoice.amountOutstanding, invoice.currency);
  const paid = money(invoice.amountPaid, invoice.currency);
  const customer = invoice.customerName ?? invoice.customerEmail ?? "no customer";
  return (
    <p>
      Invoice{" "}
      <a href={invoicePath(invoice.id)} safe>
        {invoice.number}
      </a>{" "}
      (<span safe>{customer}</span>): <span safe>{invoice.status}</span>, outstanding <span safe>{outstanding}</span>, paid <span safe>{paid}</span>.
    </p>
  );
}

export function CreditNotePage({ session, invoice, form }: ActionFormProps) {
  const v = form.values;
  return (
    <Shell title={`Credit note for ${invoice.number}`} session={session} path={PATH}>
      <InvoiceLine invoice={invoice} />
      <p>
        A credit note lowers what the invoice asks; past the outstanding amount it goes to the company's credit balance. It takes the next credit-note
        number and cannot be withdrawn.
      </p>
      <FormError message={form.error} />
      <form method="post" action={invoicePath(invoice.id, "/credit-notes")} class="stack">
        <input type="hidden" name="csrf" value={session.csrfToken} />
        <OnceKey />
        <Field name="reason" label="Reason" value={v.reason} error={form.fields.reason} required />
        <Field
          name="amount"
          label={`Amount (${invoice.currency})`}
          value={v.amount}
          error={form.fields.amount}
          hint="Greater than 0, at most 6 decimals."
          required
        />
        <Field name="memo" label="Memo (optional)" value={v.memo} error={form.fields.memo} />
        <div class="actions">
          <button type="submit" class="primary">
            Create credit note
          </button>
          <a href={invoicePath(invoice.id)}>Cancel</a>
        </div>
      </form>
    </Shell>
  );
}

export function PaymentProofPage({ session, invoice, form }: ActionFormProps) {
  const v = form.values;
  return (
    <Shell title={`Payment proof for ${invoice.number}`} session={session} path={PATH}>
      <InvoiceLine invoice={invoice} />
      <p>The service verifies the transfer on chain before anything is applied to the invoice.</p>
      <FormError message={form.error} />
      <form method="post" action={invoicePath(invoice.id, "/payments")} class="stack">
        <input type="hidden" name="csrf" value={session.csrfToken} />
        <OnceKey />
        <Field name="txHash" label="Transaction hash" value={v.txHash} error={form.fields.txHash} required />
        <Field
          name="network"
          label="Network (optional)"
          value={v.network}
          error={form.fields.network}
          hint="Default: the invoice's network; needed when it has none."
        />
        <div class="actions">
          <button type="submit" class="primary">
            Submit payment proof
          </button>
          <a href={invoicePath(invoice.id)}>Cancel</a>
        </div>
      </form>
    </Shell>
  );
}

export function RefundPage({ session, invoice, form }: ActionFormProps) {
  const v = form.values;
  return (
    <Shell title={`Refund for ${invoice.number}`} session={session} path={PATH}>
      <InvoiceLine invoice={invoice} />
      <p>Record money already sent back on chain: the service verifies the transaction first, then records the refund with a credit note.</p>
      <FormError message={form.error} />
      <form method="post" action={invoicePath(invoice.id, "/refunds")} class="stack">
        <input type="hidden" name="csrf" value={session.csrfToken} />
        <OnceKey />
        <Field name="amount" label={`Amount (${invoice.currency})`} value={v.amount} error={form.fields.amount} required />
        <Field name="reason" label="Reason" value={v.reason} error={form.fields.reason} required />
        <Field
          name="refundProof.txHash"
          label="Refund transaction hash"
          value={v["refundProof.txHash"]}
          error={form.fields["refundProof.txHash"]}
          required
        />
        <Field
          name="refundProof.recipientWallet"
          label="Recipient wallet"
          value={v["refundProof.recipientWallet"]}
          error={form.fields["refundProof.recipientWallet"]}
          required
        />
        <div class="actions">
          <button type="submit" class="primary">
            Record refund
          </button>
          <a href={invoicePath(invoice.id)}>Cancel</a>
        </div>
      </form>
    </Shell>
  );
}
