/**
 * Agents (docs/agents.md): auto-topup configurations with their last dispatch, disable and delete after a
 * confirmation; the dispatches (transactions linked to the explorer the API names); the funding mandates, removed
 * after a confirmation (registering one takes the funding wallet's signature: the API or the CLI); x402 payments.
 */
import { FormError, ListTable, NextPage, Notice, Shell, TxHash, when } from "../../layout";
import type { PageSession } from "../../session";

export interface ConfigView {
  id: string;
  minBalanceThreshold: string;
  topupAmount: string;
  targetWallet: string;
  network: string;
  token: string;
  enabled: boolean;
  armed: boolean;
  createdAt: string;
}

export interface DispatchView {
  id: string;
  configId: string;
  network: string;
  token: string;
  targetWallet: string;
  amount: string;
  status: string;
  reason: string | null;
  detail: string | null;
  txHash: string | null;
  explorerUrl: string | null;
  createdAt: string;
}

export interface FundingView {
  id: string;
  network: string;
  token: string;
  fundingWallet: string;
  authorizedAmount: string;
  remainingAmount: string;
  dailyCap: string;
  signedTotal: string | null;
  status: string;
}

export interface PaymentView {
  id: string;
  status: string;
  companyId: string;
  creditPackId: string;
  credits: string;
  network: string;
  payer: string;
  amount: string;
  txHash: string | null;
  failureReason: string | null;
  claimedAt: string;
}

export interface AgentsProps {
  session: PageSession;
  configs: ConfigView[];
  configsNext: string | null;
  /** each configuration's newest dispatch, by configuration id */
  lastDispatch: Record<string, DispatchView | undefined>;
  dispatches: DispatchView[];
  dispatchesNext: string | null;
  funding: FundingView[];
  payments: PaymentView[];
  paymentsNext: string | null;
  done: string | null;
}

export const PATH = "/dashboard/agents";
const CONFIG_API = "/dashboard/agent-dispatch/{id}";

// Values of their own, printed with `safe`: the XSS scan does not see into a conditional expression.
const configStatus = (c: ConfigView): string =>
  c.enabled ? (c.armed ? "Enabled, armed" : "Enabled, waiting for the balance to recover") : "Disabled";
const lastOf = (d: DispatchView | undefined): string => (d ? `${when(d.createdAt)} · ${d.status}${d.reason ? ` (${d.reason})` : ""}` : "None yet");
const amountOf = (units: string, token: string): string => `${units} ${token} units`;
const paymentStatus = (x: PaymentView): string => (x.failureReason ? `${x.status} (${x.failureReason})` : x.status);
const orDash = (v: string | null): string => v ?? "—";
const refusal = (d: DispatchView): string => [d.reason, d.detail].filter(Boolean).join(": ") || "—";

export function AgentsPage(p: AgentsProps) {
  const { session } = p;
  const canDisable = session.may("POST", `${CONFIG_API}/disable`);
  const canDelete = session.may("DELETE", CONFIG_API);
  const canRemoveFunding = session.may("DELETE", "/dashboard/agent-funding/{network}");
  const actions = canDisable || canDelete;
  return (
    <Shell title="Agents" session={session} path={PATH}>
      <Notice text={p.done} />
      <p class="hint">
        An agent's wallet is topped up from the team's funding mandate when a tick reads its balance below the threshold. Configurations are made with{" "}
        <code>POST /agent/dispatch</code> from your server (or the CLI); here they are watched, disabled and deleted.
      </p>
      <ListTable
        id="configs-title"
        title={`Auto-topup configurations in ${session.environment}`}
        empty="No auto-topup configurations yet."
        columns={["Wallet", "Network", "Token", "Threshold", "Top-up amount", "Status", "Last dispatch", ...(actions ? ["Action"] : [])]}
        rows={p.configs.map((c) => (
          <tr>
            <td>
              <code safe>{c.targetWallet}</code>
            </td>
            <td safe>{c.network}</td>
            <td safe>{c.token}</td>
            <td safe>{c.minBalanceThreshold}</td>
            <td safe>{c.topupAmount}</td>
            <td safe>{configStatus(c)}</td>
            <td safe>{lastOf(p.lastDispatch[c.id])}</td>
            {actions ? (
              <td class="row-actions">
                {canDisable && c.enabled ? (
                  <a href={`${PATH}/${encodeURIComponent(c.id)}/disable`}>
                    Disable<span class="visually-hidden" safe>{` ${c.targetWallet} on ${c.network}`}</span>
                  </a>
                ) : (
                  ""
                )}
                {canDelete ? (
                  <a href={`${PATH}/${encodeURIComponent(c.id)}/delete`} class="danger-link">
                    Delete<span class="visually-hidden" safe>{` ${c.targetWallet} on ${c.network}`}</span>
                  </a>
                ) : (
                  ""
                )}
              </td>
            ) : (
              ""
            )}
          </tr>
        ))}
      >
        <NextPage path={PATH} param="cursor" cursor={p.configsNext} label="Next page of configurations" />
      </ListTable>
      {actions ? "" : <p class="hint">Your role lets you read auto-topups, not disable or delete them.</p>}
      <ListTable
        id="dispatches-title"
        title="Top-up dispatches"
        empty="No top-ups dispatched yet."
        columns={["Time", "Wallet", "Network", "Amount", "Transaction", "Status", "Refusal"]}
        rows={p.dispatches.map((d) => (
          <tr>
            <td safe>{when(d.createdAt)}</td>
            <td>
              <code safe>{d.targetWallet}</code>
            </td>
            <td safe>{d.network}</td>
            <td safe>{amountOf(d.amount, d.token)}</td>
            <td>
              <TxHash hash={d.txHash} url={d.explorerUrl} />
            </td>
            <td safe>{d.status}</td>
            <td safe>{refusal(d)}</td>
          </tr>
        ))}
      >
        <NextPage path={PATH} param="topups" cursor={p.dispatchesNext} label="Next page of dispatches" />
      </ListTable>
      <ListTable
        id="funding-title"
        title="Funding mandates"
        empty="No funding mandate registered: top-ups are refused (mandate_missing) until one is."
        columns={[
          "Network",
          "Funding wallet",
          "Token",
          "Signed total",
          "Daily cap",
          "Authorized",
          "Remaining",
          "Status",
          ...(canRemoveFunding ? ["Action"] : []),
        ]}
        rows={p.funding.map((f) => (
          <tr>
            <td safe>{f.network}</td>
            <td>
              <code safe>{f.fundingWallet}</code>
            </td>
            <td safe>{f.token}</td>
            <td safe>{orDash(f.signedTotal)}</td>
            <td safe>{f.dailyCap}</td>
            <td safe>{f.authorizedAmount}</td>
            <td safe>{f.remainingAmount}</td>
            <td safe>{f.status.toLowerCase()}</td>
            {canRemoveFunding ? (
              <td>
                {f.status === "ACTIVE" ? (
                  <a href={`${PATH}/funding/${encodeURIComponent(f.network)}/remove`} class="danger-link">
                    Remove<span class="visually-hidden" safe>{` the mandate on ${f.network}`}</span>
                  </a>
                ) : (
                  ""
                )}
              </td>
            ) : (
              ""
            )}
          </tr>
        ))}
      >
        <p class="hint">
          Registering a funding mandate takes the funding wallet's signature of the consent text, which this page cannot make: the wallet's owner
          signs it, and the signature is registered through the API, <code>PUT /api/v1/dashboard/agent-funding/:network</code> with a dashboard
          session (docs/agents.md, Funding mandate).
        </p>
      </ListTable>
      <ListTable
        id="payments-title"
        title="x402 payments"
        empty="No x402 payments yet."
        columns={["Claimed", "Company", "Credit pack", "Credits", "Amount", "Network", "Payer", "Transaction", "Status"]}
        rows={p.payments.map((x) => (
          <tr>
            <td safe>{when(x.claimedAt)}</td>
            <td safe>{x.companyId}</td>
            <td safe>{x.creditPackId}</td>
            <td safe>{x.credits}</td>
            <td safe>{x.amount}</td>
            <td safe>{x.network}</td>
            <td>
              <code safe>{x.payer}</code>
            </td>
            <td>
              <TxHash hash={x.txHash} />
            </td>
            <td safe>{paymentStatus(x)}</td>
          </tr>
        ))}
      >
        <NextPage path={PATH} param="payments" cursor={p.paymentsNext} label="Next page of x402 payments" />
      </ListTable>
    </Shell>
  );
}

export type ConfigAction = "disable" | "delete";

/** The confirmation before disabling or deleting a configuration: what stops, what stays. */
export function ConfigConfirmPage({
  session,
  config,
  action,
  error,
}: {
  session: PageSession;
  config: ConfigView;
  action: ConfigAction;
  error?: string | null;
}) {
  const title = action === "disable" ? "Disable auto-topup" : "Delete auto-topup";
  const effect: string =
    action === "disable"
      ? "The monitor stops topping this wallet up from its next tick; POST /agent/dispatch for the same wallet and network enables it again."
      : "The configuration is removed and the wallet is no longer watched; its dispatches stay listed. This cannot be undone.";
  const button: string = action === "disable" ? "Disable auto-topup" : "Delete auto-topup";
  return (
    <Shell title={title} session={session} path={PATH}>
      <FormError message={error ?? null} />
      <dl class="facts">
        <dt>Wallet</dt>
        <dd>
          <code safe>{config.targetWallet}</code>
        </dd>
        <dt>Network</dt>
        <dd safe>{`${config.network} (${config.token})`}</dd>
        <dt>Threshold</dt>
        <dd safe>{config.minBalanceThreshold}</dd>
        <dt>Top-up amount</dt>
        <dd safe>{config.topupAmount}</dd>
      </dl>
      <p safe>{effect}</p>
      <form method="post" action={`${PATH}/${encodeURIComponent(config.id)}/${action}`} class="actions">
        <input type="hidden" name="csrf" value={session.csrfToken} />
        <button type="submit" class="danger" safe>
          {button}
        </button>
        <a href={PATH}>Cancel</a>
      </form>
    </Shell>
  );
}

/** The confirmation before removing (revoking) a funding mandate. */
export function FundingRemovePage({ session, mandate, error }: { session: PageSession; mandate: FundingView; error?: string | null }) {
  return (
    <Shell title="Remove funding mandate" session={session} path={PATH}>
      <FormError message={error ?? null} />
      <p>
        Remove the funding mandate of <strong safe>{mandate.network}</strong> drawn from <code safe>{mandate.fundingWallet}</code>? Top-ups on this
        network stop drawing on it: each is recorded failed (<code>mandate_revoked</code>) until a new mandate is registered, which takes the funding
        wallet's signature again. The wallet may also withdraw its approval on chain.
      </p>
      <form method="post" action={`${PATH}/funding/${encodeURIComponent(mandate.network)}/remove`} class="actions">
        <input type="hidden" name="csrf" value={session.csrfToken} />
        <button type="submit" class="danger">
          Remove funding mandate
        </button>
        <a href={PATH}>Cancel</a>
      </form>
    </Shell>
  );
}
