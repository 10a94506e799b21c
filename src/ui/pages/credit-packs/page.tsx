/**
 * Credit packs (credits sold over x402, docs/x402.md#credit-packs): the list and create form; packs are immutable,
 * so a pack is archived after a confirmation, never edited.
 */
import { Field, FormError, ListTable, OnceKey, Shell, when } from "../../layout";
import type { PageSession } from "../../session";
import { Check, ConfirmPage, type FormState, DoneNotice, ReadOnly, yesNo } from "../../forms";

export interface CreditPackView {
  id: string;
  key: string;
  name: string;
  credits: string;
  prices: { network: string; token: string; asset: string; amount: string }[];
  offerOnPaymentRequired: boolean;
  enabled: boolean;
  archived: boolean;
  archivedAt: string | null;
  createdAt: string;
}

export interface CreditPacksProps {
  session: PageSession;
  packs: CreditPackView[];
  nextCursor: string | null;
  includeArchived: boolean;
  form?: FormState;
  done?: string;
}

export const PATH = "/dashboard/credit-packs";
const NOTICES = { created: "Credit pack created.", archived: "Credit pack archived: a 402 no longer offers it." };

const pricesText = (p: CreditPackView): string => p.prices.map((x) => `${x.amount} ${x.token} units on ${x.network}`).join("; ");
const statusText = (p: CreditPackView): string => (p.archivedAt ? `Archived ${when(p.archivedAt)}` : p.enabled ? "Active" : "Disabled");

export function CreditPacksPage({ session, packs, nextCursor, includeArchived, form, done }: CreditPacksProps) {
  const canWrite = session.may("POST", PATH);
  const canArchive = session.may("DELETE", `${PATH}/{id}`);
  const v = form?.values;
  const f = form?.fields ?? {};
  const next = nextCursor ? `${PATH}?${new URLSearchParams({ cursor: nextCursor, ...(includeArchived ? { includeArchived: "true" } : {}) })}` : null;
  const toggle = includeArchived ? PATH : `${PATH}?includeArchived=true`;
  const toggleText = includeArchived ? "Hide archived packs" : "Show archived packs";
  return (
    <Shell title="Credit packs" session={session} path="/dashboard/plans">
      <DoneNotice notices={NOTICES} done={done} />
      <p>
        Credits sold through x402 when a company runs short (the insufficient-credit 402). A pack never changes: archive it and create another.{" "}
        <a href="/dashboard/plans">Back to plans</a> · <a href={toggle}>{toggleText}</a>
      </p>
      <ListTable
        id="packs-title"
        title={`Credit packs in ${session.environment}`}
        empty="No credit packs here yet."
        columns={["Key", "Name", "Credits", "Prices", "Offered on 402", "Status", ...(canArchive ? ["Action"] : [])]}
        rows={packs.map((p) => (
          <tr>
            <td>
              <code safe>{p.key}</code>
            </td>
            <td safe>{p.name}</td>
            <td safe>{p.credits}</td>
            <td safe>{pricesText(p)}</td>
            <td safe>{yesNo(p.offerOnPaymentRequired)}</td>
            <td safe>{statusText(p)}</td>
            {canArchive ? (
              <td>
                {p.archived ? (
                  ""
                ) : (
                  <a href={`${PATH}/${encodeURIComponent(p.id)}/archive`} class="danger-link">
                    Archive<span class="visually-hidden" safe>{` ${p.name}`}</span>
                  </a>
                )}
              </td>
            ) : (
              ""
            )}
          </tr>
        ))}
      >
        {next ? (
          <p>
            <a href={next}>Next page</a>
          </p>
        ) : (
          ""
        )}
      </ListTable>
      {canWrite ? (
        <section aria-labelledby="create-title">
          <h2 id="create-title">Create a credit pack</h2>
          <FormError message={form?.error ?? null} />
          <form method="post" action={PATH} class="stack">
            <input type="hidden" name="csrf" value={session.csrfToken} />
            <OnceKey />
            <Field name="key" label="Key" value={v?.key} error={f.key} hint="A-Z a-z 0-9 _ - ; unique in any case." required />
            <Field name="name" label="Name (optional)" value={v?.name} error={f.name} hint="Default: the key." />
            <Field name="credits" label="Credits" value={v?.credits} error={f.credits} hint="A whole number of credits the pack grants." required />
            <fieldset>
              <legend>Price</legend>
              <Field
                name="network"
                label="Network"
                value={v?.network}
                error={f.network}
                hint="An EVM network this environment settles on (base-sepolia)."
                required
              />
              <Field
                name="token"
                label="Token"
                value={v?.token}
                error={f.token}
                hint="Its symbol or contract address; it must take EIP-3009 authorizations (USDC)."
                required
              />
              <Field
                name="amount"
                label="Amount in token units"
                value={v?.amount}
                error={f.amount}
                hint="The token's smallest units: 2500000 is 2.5 USDC."
                required
              />
            </fieldset>
            <Check
              name="offerOnPaymentRequired"
              label="Offer it on the insufficient-credit 402"
              checked={v ? v.offerOnPaymentRequired === "on" : false}
              error={f.offerOnPaymentRequired}
            />
            <Check name="enabled" label="Enabled" checked={v ? v.enabled === "on" : true} error={f.enabled} />
            <button type="submit" class="primary">
              Create credit pack
            </button>
          </form>
        </section>
      ) : (
        <ReadOnly what="credit packs" />
      )}
    </Shell>
  );
}

export function ArchivePackPage({ session, pack }: { session: PageSession; pack: CreditPackView }) {
  return (
    <ConfirmPage
      session={session}
      title={`Archive credit pack ${pack.key}`}
      path="/dashboard/plans"
      action={`${PATH}/${encodeURIComponent(pack.id)}/archive`}
      button="Archive credit pack"
      back={PATH}
    >
      <p>
        Archive <code safe>{pack.key}</code> (<span safe>{pack.name}</span>, <span safe>{`${pack.credits} credits`}</span>)? A 402 no longer offers it
        and it leaves the list; payments already settled stand. Packs are never deleted.
      </p>
    </ConfirmPage>
  );
}
