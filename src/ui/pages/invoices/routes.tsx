/**
 * The invoices section's routes: the list (status, search, company, the API's cursor), one invoice, its documents (the
 * API's answer passed to the browser as a download), and the writes: a draft made or edited, issued, voided
 * after a confirmation, credited, paid with a proof, refunded, sent again. Every call is the API's.
 */
import { fieldErrors, type Api, type ApiAnswer } from "../../api";
import { formOf, given, text, type Form, type PageKit, type Section } from "../../kit";
import { integer } from "../../forms";
import { CONTENT_SECURITY_POLICY, page, redirect } from "../../response";
import type { PageSession } from "../../session";
import { InvoiceDetailPage, type InvoiceDetailProps } from "./detail";
import { CreditNotePage, DraftFormPage, MAX_LINE_ROWS, PaymentProofPage, RefundPage, VoidPage, draftValues, lineRows } from "./forms";
import { InvoiceListPage, listParams, statusFilter } from "./page";
import { PATH, invoicePath, type FormState, type InvoiceDetailView } from "./records";

/** A form's field as text (a field posted twice arrives as a list: its last value). */
const field = (form: Form, name: string): string => text(form[name]);

/** A refusal's messages by field, whatever part of the request the API names (`body.`, `query.`). */
function refusal(answer: ApiAnswer): { error: string | null; fields: Record<string, string> } {
  const { form, fields } = fieldErrors(answer);
  const named: Record<string, string> = {};
  for (const [path, message] of Object.entries(fields)) named[path.replace(/^query\./, "")] = message;
  return { error: form, fields: named };
}

const LINE_NAMES = ["description", "quantity", "unitAmount", "taxRate"] as const;

/**
 * A draft's body from its form: the rows with anything typed (empty rows left out), and which form row each of
 * the API's lines came from, so the API's message for `lineItems[1]` lands beside the row the operator typed it in.
 */
function draftBody(form: Form) {
  const rows = Math.min(MAX_LINE_ROWS, Math.max(1, Number.parseInt(field(form, "rows"), 10) || 3));
  const rowOf: number[] = [];
  const lineItems = [];
  for (let n = 0; n < rows; n++) {
    const [description, quantity, unitAmount, taxRate] = LINE_NAMES.map((name) => field(form, `lineItems[${n}].${name}`));
    if (![description, quantity, unitAmount, taxRate].some((v) => v!.trim() !== "")) continue;
    rowOf.push(n);
    lineItems.push({ description, quantity: integer(quantity), unitAmount, taxRate });
  }
  const terms = field(form, "paymentTermsDays").trim();
  const body = {
    currency: field(form, "currency"),
    lineItems,
    companyId: given(field(form, "companyId")),
    customerName: given(field(form, "customerName")),
    customerEmail: given(field(form, "customerEmail")),
    customerWallet: given(field(form, "customerWallet")),
    network: given(field(form, "network")),
    description: given(field(form, "description")),
    ...(terms === "" ? {} : { paymentTermsDays: integer(terms) }),
  };
  return { body, rows, rowOf };
}

/** The API's messages with its line numbers turned into the form's rows. */
function draftErrors(answer: ApiAnswer, rowOf: number[]) {
  const { error, fields } = refusal(answer);
  const moved: Record<string, string> = {};
  for (const [path, message] of Object.entries(fields))
    moved[path.replace(/^lineItems\[(\d+)\]/, (_, k: string) => `lineItems[${rowOf[Number(k)] ?? k}]`)] = message;
  return { error, fields: moved };
}

/** What the form posted, to print back as typed. */
const valuesOf = (form: Form): Record<string, string> => Object.fromEntries(Object.keys(form).map((k) => [k, field(form, k)]));

/** A document's answer as a download: the API's bytes and content type, saved under the API's file name. */
function download(answer: Response): Response {
  const disposition = (answer.headers.get("content-disposition") ?? 'attachment; filename="invoice"').replace(/^inline/, "attachment");
  return new Response(answer.body, {
    status: 200,
    headers: {
      "content-type": answer.headers.get("content-type") ?? "application/octet-stream",
      "content-disposition": disposition,
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
      "content-security-policy": CONTENT_SECURITY_POLICY,
    },
  });
}

/** The API's refusal of a document, read from its JSON body. */
async function documentRefusal(kit: PageKit, answer: Response, session: PageSession) {
  let message = `The service answered ${answer.status}`;
  try {
    const body = (await answer.json()) as { error?: unknown };
    if (typeof body.error === "string") message = body.error;
  } catch {}
  return kit.refused(answer.status, message, session);
}

const DOCUMENTS = ["pdf", "pain013", "camt054"] as const;

export const invoicePages: Section = (kit) => (app) => {
  const readInvoice = (api: Api, id: string) => api({ method: "GET", path: `/dashboard/invoices/${encodeURIComponent(id)}` });

  /** Reads the invoice, then renders; the API's refusal (404) as its page. */
  const withInvoice = (
    request: Request,
    id: string,
    render: (api: Api, session: PageSession, invoice: InvoiceDetailView) => Response | Promise<Response>,
  ) =>
    kit.signedIn(request, async (api, session) => {
      const answer = await readInvoice(api, id);
      if (answer.status !== 200) return kit.refusedBy(answer, "The invoice could not be read", session);
      return render(api, session, answer.body.data as InvoiceDetailView);
    });

  const detail = (session: PageSession, invoice: InvoiceDetailView, extra: Partial<InvoiceDetailProps> = {}, status = 200) =>
    page(<InvoiceDetailPage session={session} invoice={invoice} {...extra} />, status);

  const blank: FormState = { values: {}, error: null, fields: {} };
  const kept = (form: Form, answer: ApiAnswer): FormState => ({ values: valuesOf(form), ...refusal(answer) });

  return (
    app
      .get(PATH, ({ request, query }) =>
        kit.signedIn(request, async (api, session) => {
          const filters = {
            status: statusFilter(query.status),
            q: given(typeof query.q === "string" ? query.q : undefined),
            companyId: given(typeof query.companyId === "string" ? query.companyId : undefined),
          };
          const params = listParams(filters);
          if (typeof query.cursor === "string" && query.cursor) params.set("cursor", query.cursor);
          const list = await api({ method: "GET", path: `/dashboard/invoices${params.size ? `?${params}` : ""}` });
          if (list.status === 400)
            return page(<InvoiceListPage session={session} invoices={[]} nextCursor={null} filters={filters} error={refusal(list)} />, 400);
          if (list.status !== 200) return kit.refusedBy(list, "The invoices could not be read", session);
          return page(<InvoiceListPage session={session} invoices={list.body.data} nextCursor={list.body.nextCursor ?? null} filters={filters} />);
        }),
      )
      .get(`${PATH}/new`, ({ request }) =>
        kit.signedIn(request, (_api, session) =>
          page(<DraftFormPage session={session} form={{ ...blank, values: { currency: "USDC" } }} rows={lineRows(0)} />),
        ),
      )
      .post(PATH, ({ request, body }) =>
        kit.signedIn(request, async (api, session) => {
          const form = formOf(body);
          const draft = draftBody(form);
          const answer = await kit.send(api, form, { method: "POST", path: "/dashboard/invoices", body: draft.body });
          if (answer.status === 201) return redirect(`${invoicePath(answer.body.data.id)}?done=created`);
          if (answer.status === 403) return kit.refusedBy(answer, "Refused", session);
          const state = { values: valuesOf(form), ...draftErrors(answer, draft.rowOf) };
          return page(<DraftFormPage session={session} form={state} rows={draft.rows} />, answer.status);
        }),
      )
      .get(`${PATH}/:id`, ({ request, params, query }) =>
        withInvoice(request, params.id, (_api, session, invoice) =>
          detail(session, invoice, { done: typeof query.done === "string" ? query.done : undefined }),
        ),
      )
      .get(`${PATH}/:id/edit`, ({ request, params }) =>
        withInvoice(request, params.id, (_api, session, invoice) =>
          page(
            <DraftFormPage
              session={session}
              invoice={invoice}
              form={{ ...blank, values: draftValues(invoice) }}
              rows={lineRows(invoice.lineItems.length)}
            />,
          ),
        ),
      )
      .post(`${PATH}/:id/edit`, ({ request, params, body }) =>
        withInvoice(request, params.id, async (api, session, invoice) => {
          const form = formOf(body);
          const draft = draftBody(form);
          const answer = await kit.send(api, form, {
            method: "PUT",
            path: `/dashboard/invoices/${encodeURIComponent(invoice.id)}`,
            body: draft.body,
          });
          if (answer.status === 200) return redirect(`${invoicePath(invoice.id)}?done=saved`);
          if (answer.status === 403) return kit.refusedBy(answer, "Refused", session);
          const state = { values: valuesOf(form), ...draftErrors(answer, draft.rowOf) };
          return page(<DraftFormPage session={session} invoice={invoice} form={state} rows={draft.rows} />, answer.status);
        }),
      )
      .post(`${PATH}/:id/issue`, ({ request, params, body }) =>
        withInvoice(request, params.id, async (api, session, invoice) => {
          const answer = await kit.send(api, formOf(body), { method: "POST", path: `/dashboard/invoices/${encodeURIComponent(invoice.id)}/issue` });
          if (answer.status === 200) return redirect(`${invoicePath(invoice.id)}?done=issued`);
          if (answer.status === 403) return kit.refusedBy(answer, "Refused", session);
          return detail(session, invoice, { error: refusal(answer).error ?? "The invoice could not be issued" }, answer.status);
        }),
      )
      .get(`${PATH}/:id/void`, ({ request, params }) =>
        withInvoice(request, params.id, (_api, session, invoice) => page(<VoidPage session={session} invoice={invoice} />)),
      )
      .post(`${PATH}/:id/void`, ({ request, params, body }) =>
        withInvoice(request, params.id, async (api, session, invoice) => {
          const answer = await kit.send(api, formOf(body), { method: "POST", path: `/dashboard/invoices/${encodeURIComponent(invoice.id)}/void` });
          if (answer.status === 200) return redirect(`${invoicePath(invoice.id)}?done=voided`);
          if (answer.status === 403) return kit.refusedBy(answer, "Refused", session);
          return page(<VoidPage session={session} invoice={invoice} error={refusal(answer).error} />, answer.status);
        }),
      )
      .get(`${PATH}/:id/credit-notes/new`, ({ request, params }) =>
        withInvoice(request, params.id, (_api, session, invoice) => page(<CreditNotePage session={session} invoice={invoice} form={blank} />)),
      )
      .post(`${PATH}/:id/credit-notes`, ({ request, params, body }) =>
        withInvoice(request, params.id, async (api, session, invoice) => {
          const form = formOf(body);
          const input = { reason: field(form, "reason"), amount: field(form, "amount"), memo: given(field(form, "memo")) };
          const answer = await kit.send(api, form, {
            method: "POST",
            path: `/dashboard/invoices/${encodeURIComponent(invoice.id)}/credit-notes`,
            body: input,
          });
          if (answer.status === 201) return redirect(`${invoicePath(invoice.id)}?done=credited`);
          if (answer.status === 403) return kit.refusedBy(answer, "Refused", session);
          return page(<CreditNotePage session={session} invoice={invoice} form={kept(form, answer)} />, answer.status);
        }),
      )
      .get(`${PATH}/:id/payments/new`, ({ request, params }) =>
        withInvoice(request, params.id, (_api, session, invoice) => page(<PaymentProofPage session={session} invoice={invoice} form={blank} />)),
      )
      .post(`${PATH}/:id/payments`, ({ request, params, body }) =>
        withInvoice(request, params.id, async (api, session, invoice) => {
          const form = formOf(body);
          const input = { txHash: field(form, "txHash").trim(), network: given(field(form, "network")) };
          const answer = await kit.send(api, form, {
            method: "POST",
            path: `/dashboard/invoices/${encodeURIComponent(invoice.id)}/payments`,
            body: input,
          });
          if (answer.status === 200) return redirect(`${invoicePath(invoice.id)}?done=paid`);
          if (answer.status === 202) return redirect(`${invoicePath(invoice.id)}?done=payment-pending`);
          if (answer.status === 403) return kit.refusedBy(answer, "Refused", session);
          return page(<PaymentProofPage session={session} invoice={invoice} form={kept(form, answer)} />, answer.status);
        }),
      )
      .get(`${PATH}/:id/refunds/new`, ({ request, params }) =>
        withInvoice(request, params.id, (_api, session, invoice) => page(<RefundPage session={session} invoice={invoice} form={blank} />)),
      )
      .post(`${PATH}/:id/refunds`, ({ request, params, body }) =>
        withInvoice(request, params.id, async (api, session, invoice) => {
          const form = formOf(body);
          const input = {
            amount: field(form, "amount"),
            reason: field(form, "reason"),
            refundProof: { txHash: field(form, "refundProof.txHash").trim(), recipientWallet: field(form, "refundProof.recipientWallet").trim() },
          };
          const answer = await kit.send(api, form, { method: "POST", path: `/invoices/${encodeURIComponent(invoice.id)}/refunds`, body: input });
          if (answer.status === 201) return redirect(`${invoicePath(invoice.id)}?done=refunded`);
          if (answer.status === 403) return kit.refusedBy(answer, "Refused", session);
          return page(<RefundPage session={session} invoice={invoice} form={kept(form, answer)} />, answer.status);
        }),
      )
      .post(`${PATH}/:id/send`, ({ request, params, body }) =>
        withInvoice(request, params.id, async (api, session, invoice) => {
          const form = formOf(body);
          const input = { channel: given(field(form, "channel")), to: given(field(form, "to")) };
          const answer = await kit.send(api, form, {
            method: "POST",
            path: `/dashboard/invoices/${encodeURIComponent(invoice.id)}/send`,
            body: input,
          });
          if (answer.status === 202) return redirect(`${invoicePath(invoice.id)}?done=sent`);
          if (answer.status === 403) return kit.refusedBy(answer, "Refused", session);
          return detail(session, invoice, { send: kept(form, answer) }, answer.status);
        }),
      )
      // The documents: the API's answer handed to the browser as a download. The PDF and pain.013 through the
      // signed links the invoice's answer carries, camt.054 through its session route.
      .get(`${PATH}/:id/:document`, ({ request, params }) =>
        kit.signedIn(request, async (api, session) => {
          const kind = DOCUMENTS.find((d) => d === params.document);
          if (!kind) return kit.refused(404, "There is no such page.", session);
          let path = `/dashboard/invoices/${encodeURIComponent(params.id)}/camt054`;
          if (kind !== "camt054") {
            const answer = await readInvoice(api, params.id);
            if (answer.status !== 200) return kit.refusedBy(answer, "The invoice could not be read", session);
            const link = new URL(kind === "pdf" ? answer.body.data.downloadUrl : answer.body.data.iso20022DownloadUrl);
            path = link.pathname.replace(/^\/api\/v1/, "");
          }
          const document = await kit.document(request, path);
          return document.status === 200 ? download(document) : documentRefusal(kit, document, session);
        }),
      )
  );
};
