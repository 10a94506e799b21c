/**
 * Escrow (docs/escrow.md): the reservations with a status filter, disputes awaiting resolution, a reservation's
 * detail, the resolution (refund to the payer or capture to the payee) after a confirmation that says where the
 * money goes, and the verified zkTLS proofs.
 */
import { FormError, ListTable, NextPage, Notice, Shell, TxHash, when } from "../../layout";
import type { PageSession } from "../../session";

type Tx = string | null;
export interface ReservationView {
  id: string;
  requestNonce: string;
  status: string;
  pendingAction: string | null;
  network: string;
  contract: string;
  companyId: string | null;
  payer: string;
  payee: string;
  token: { symbol: string; contract: string };
  amount: string;
  windowEndsAt: string;
  consentDeadline: string;
  deliveryProvider: string | null;
  capturedEarly: boolean;
  captureProofId: string | null;
  disputeReason: string | null;
  disputedVia: string | null;
  transactions: { authorize: Tx; capture: Tx; dispute: Tx; refund: Tx };
  explorerUrls: { authorize: Tx; capture: Tx; dispute: Tx; refund: Tx };
  createdAt: string;
  disputedAt: string | null;
}

export interface ProofView {
  id: string;
  companyId: string | null;
  provider: string;
  identifier: string;
  owner: string;
  timestamp: string;
  parameters: string;
  context: string;
  signers: string[];
  createdAt: string;
}

export const PATH = "/dashboard/escrow";
export const STATUSES = ["pending", "authorized", "captured", "disputed", "refunded"] as const;
export type Outcome = "refunded" | "captured";
const RESOLVE_API = "/escrow/reservations/{id}/resolve";

const amountOf = (r: ReservationView): string => `${r.amount} ${r.token.symbol} units`;
const orDash = (v: string | null): string => v ?? "—";
const statusOf = (r: ReservationView): string => (r.pendingAction ? `${r.status} (${r.pendingAction.replace("_", " ")} in flight)` : r.status);
const detailHref = (r: ReservationView): string => `${PATH}/${encodeURIComponent(r.id)}`;
const TX_NAMES = ["authorize", "capture", "dispute", "refund"] as const;

/** A reservation's transactions, each linked to the explorer the API names. */
function Transactions({ r }: { r: ReservationView }) {
  const present = TX_NAMES.filter((name) => r.transactions[name]);
  if (present.length === 0) return "—";
  return (
    <ul class="tx-list">
      {present.map((name) => (
        <li>
          <span safe>{`${name}: `}</span>
          <TxHash hash={r.transactions[name]} url={r.explorerUrls[name]} />
        </li>
      ))}
    </ul>
  );
}

export interface EscrowProps {
  session: PageSession;
  status: string | undefined;
  reservations: ReservationView[];
  nextCursor: string | null;
  /** the disputed reservations, shown above the list when no filter is set */
  disputes: ReservationView[] | null;
  done: string | null;
}

export function EscrowPage({ session, status, reservations, nextCursor, disputes, done }: EscrowProps) {
  const canResolve = session.may("POST", RESOLVE_API);
  const action: string = canResolve ? "Resolve" : "Detail";
  const filterQuery = status ? `status=${encodeURIComponent(status)}&` : "";
  return (
    <Shell title="Escrow" session={session} path={PATH}>
      <Notice text={done} />
      <p>
        <a href={`${PATH}/proofs`}>zkTLS proofs of delivery</a>
      </p>
      {disputes ? (
        <ListTable
          id="disputes-title"
          title="Disputes awaiting resolution"
          empty="No disputed reservation."
          columns={["Request", "Payer", "Amount", "Disputed", "Reason", canResolve ? "Resolve" : "Detail"]}
          rows={disputes.map((r) => (
            <tr>
              <td>
                <a href={detailHref(r)} safe>
                  {r.requestNonce}
                </a>
              </td>
              <td>
                <code safe>{r.payer}</code>
              </td>
              <td safe>{amountOf(r)}</td>
              <td safe>{when(r.disputedAt)}</td>
              <td safe>{orDash(r.disputeReason)}</td>
              <td>
                <a href={detailHref(r)}>
                  <span safe>{action}</span>
                  <span class="visually-hidden" safe>{` ${r.requestNonce}`}</span>
                </a>
              </td>
            </tr>
          ))}
        />
      ) : (
        ""
      )}
      <ListTable
        id="reservations-title"
        lead={
          <form method="get" action={PATH} class="filter">
            <label for="status">Status</label>
            <select id="status" name="status">
              <option value="" selected={!status}>
                All
              </option>
              {STATUSES.map((s: string) => (
                <option value={s} selected={s === status} safe>
                  {s}
                </option>
              ))}
            </select>
            <button type="submit">Filter</button>
          </form>
        }
        title={status ? `Reservations ${status} in ${session.environment}` : `Reservations in ${session.environment}`}
        empty="No reservations."
        columns={["Request", "Created", "Payer", "Amount", "Status", "Window ends", "Delivery provider", "Transactions"]}
        rows={reservations.map((r) => (
          <tr>
            <td>
              <a href={detailHref(r)} safe>
                {r.requestNonce}
              </a>
            </td>
            <td safe>{when(r.createdAt)}</td>
            <td>
              <code safe>{r.payer}</code>
            </td>
            <td safe>{amountOf(r)}</td>
            <td safe>{statusOf(r)}</td>
            <td safe>{when(r.windowEndsAt)}</td>
            <td safe>{orDash(r.deliveryProvider)}</td>
            <td>
              <Transactions r={r} />
            </td>
          </tr>
        ))}
      >
        <NextPage path={PATH} param={`${filterQuery}cursor`} cursor={nextCursor} />
      </ListTable>
    </Shell>
  );
}

export function ReservationPage({ session, r, done }: { session: PageSession; r: ReservationView; done: string | null }) {
  const canResolve = session.may("POST", RESOLVE_API) && r.status === "disputed" && !r.pendingAction;
  const early = r.capturedEarly ? `yes, on proof ${r.captureProofId ?? ""}` : "no";
  return (
    <Shell title={`Reservation ${r.requestNonce}`} session={session} path={PATH}>
      <Notice text={done} />
      <p>
        <a href={PATH}>All reservations</a>
      </p>
      <dl class="facts">
        <dt>Status</dt>
        <dd safe>{statusOf(r)}</dd>
        <dt>Amount</dt>
        <dd safe>{amountOf(r)}</dd>
        <dt>Payer</dt>
        <dd>
          <code safe>{r.payer}</code>
        </dd>
        <dt>Payee (your settlement wallet)</dt>
        <dd>
          <code safe>{r.payee}</code>
        </dd>
        <dt>Network</dt>
        <dd safe>{r.network}</dd>
        <dt>Escrow contract</dt>
        <dd>
          <code safe>{r.contract}</code>
        </dd>
        <dt>Company</dt>
        <dd safe>{orDash(r.companyId)}</dd>
        <dt>Challenge window ends</dt>
        <dd safe>{when(r.windowEndsAt)}</dd>
        <dt>Delivery provider</dt>
        <dd safe>{orDash(r.deliveryProvider)}</dd>
        <dt>Captured early</dt>
        <dd safe>{early}</dd>
        <dt>Dispute reason</dt>
        <dd safe>{orDash(r.disputeReason)}</dd>
        <dt>Disputed via</dt>
        <dd safe>{orDash(r.disputedVia)}</dd>
        <dt>Created</dt>
        <dd safe>{when(r.createdAt)}</dd>
        <dt>Transactions</dt>
        <dd>
          <Transactions r={r} />
        </dd>
      </dl>
      {canResolve ? (
        <section aria-labelledby="resolve-title">
          <h2 id="resolve-title">Resolve the dispute</h2>
          <p>The payer disputed this reservation; the funds stay held in the contract until you decide.</p>
          <p class="actions">
            <a href={`${detailHref(r)}/resolve?outcome=refunded`}>Refund the payer</a>
            <a href={`${detailHref(r)}/resolve?outcome=captured`}>Capture to the payee</a>
          </p>
        </section>
      ) : (
        ""
      )}
    </Shell>
  );
}

/** The confirmation of a resolution: where the money goes, that it is sent on chain and final. */
export function ResolvePage({ session, r, outcome, error }: { session: PageSession; r: ReservationView; outcome: Outcome; error?: string | null }) {
  const refund = outcome === "refunded";
  const title = refund ? "Refund the payer" : "Capture to the payee";
  const to = refund ? `back to the payer ${r.payer}` : `to the payee ${r.payee}, your settlement wallet`;
  const button: string = refund ? "Refund the payer" : "Capture to the payee";
  return (
    <Shell title={title} session={session} path={PATH}>
      <FormError message={error ?? null} />
      <p>
        Reservation <strong safe>{r.requestNonce}</strong> on <span safe>{r.network}</span> holds <strong safe>{amountOf(r)}</strong>.
      </p>
      <p class="destination">
        <span safe>{`The ${amountOf(r)} go ${to}.`}</span>
      </p>
      <p>The escrow contract sends it on chain now; this cannot be undone.</p>
      <form method="post" action={`${detailHref(r)}/resolve`} class="actions">
        <input type="hidden" name="csrf" value={session.csrfToken} />
        <input type="hidden" name="outcome" value={outcome} />
        <button type="submit" class="danger" safe>
          {button}
        </button>
        <a href={detailHref(r)}>Cancel</a>
      </form>
    </Shell>
  );
}

export function ProofsPage({ session, proofs, nextCursor }: { session: PageSession; proofs: ProofView[]; nextCursor: string | null }) {
  return (
    <Shell title="zkTLS proofs" session={session} path={PATH}>
      <p>
        <a href={PATH}>Escrow reservations</a>
      </p>
      <p class="hint">Every proof listed here was verified when submitted: its signatures recovered to configured attestors.</p>
      <ListTable
        id="proofs-title"
        title={`Verified proofs in ${session.environment}`}
        empty="No zkTLS proofs yet."
        columns={["Received", "Company", "Provider", "Attested", "Verified by", "Parameters", "Context"]}
        rows={proofs.map((p) => (
          <tr>
            <td safe>{when(p.createdAt)}</td>
            <td safe>{orDash(p.companyId)}</td>
            <td safe>{p.provider}</td>
            <td safe>{when(p.timestamp)}</td>
            <td safe>{`${p.signers.length} attestor${p.signers.length === 1 ? "" : "s"}`}</td>
            <td class="wrap">
              <code safe>{p.parameters}</code>
            </td>
            <td class="wrap">
              <code safe>{p.context}</code>
            </td>
          </tr>
        ))}
      >
        <NextPage path={`${PATH}/proofs`} param="cursor" cursor={nextCursor} />
      </ListTable>
    </Shell>
  );
}
