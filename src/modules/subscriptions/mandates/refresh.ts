/**
 * Re-approval as part of dunning (BILLING.md "Subscriptions"): an approval lapses (a Stellar allowance lives
 * months at most; EVM authorizations and Solana delegations have an end or run out) and the payer approves
 * again from their wallet (EVM: `reauthorize` of the subscription's own token on the contract). Before a renewal pulls through a mandate that has lapsed (EXPIRED, or past its
 * expiry), the chain is asked: a fresh approval for the same payee (installed, not expired, something left)
 * makes the mandate ACTIVE again with the new approval's amount as its cap and its expiry. A REVOKED mandate
 * stays revoked: revoking is the payer's or the team's decision, not a lapse.
 */
import { findToken } from "../../../lib/networks";
import { approvalNamesPayee } from "../activation/payer-consent";
import { recordAudit } from "../../audit/repo";
import type { ServiceContext } from "../context";
import type { AutopayState } from "../../../chains/subscription-types";
import type { MandateRow, SubscriptionRow } from "../rows";
import { findSubscription, lockMandateOf, lockSubscription, renewMandateTerms } from "../repo";

const lapsed = (m: { status: string; expires_at: Date | null }, now: Date) =>
  m.status === "EXPIRED" || (m.status === "ACTIVE" && m.expires_at !== null && m.expires_at <= now);

const renewing = (s: SubscriptionRow, now: Date) =>
  ["TRIALING", "ACTIVE", "PAST_DUE"].includes(s.status) && s.next_attempt_at !== null && s.next_attempt_at <= now;

/**
 * Whether what the chain shows is a new approval, not the one that lapsed: more left than the mandate had, or
 * an expiry later than its. The approval whose remainder could not cover a charge (EXPIRED,
 * remaining_below_next_charge) still shows that remainder on chain, and reviving it would only expire it
 * again at every dunning retry, each time auditing a re-approval nobody gave and sending `mandate.expired`.
 */
const approvedAgain = (m: MandateRow, autopay: AutopayState) =>
  autopay.remaining > BigInt(m.remaining_amount) ||
  (m.expires_at !== null && (autopay.expiresAt === null || autopay.expiresAt * 1000 > m.expires_at.getTime()));

/** true when the mandate was renewed from a fresh approval on chain. */
export async function refreshLapsedMandate({ deps, tenant, actor, now }: ServiceContext, subscriptionId: string): Promise<boolean> {
  const sub = await findSubscription(deps.sql, tenant, subscriptionId);
  // A read: outside a transaction the row lock ends with the statement.
  const mandate = sub && (await lockMandateOf(deps.sql, tenant, sub.id));
  // Only for a renewal about to run: a canceled subscription keeps its lapsed mandate (cancelNow revokes only an
  // ACTIVE one), and a job that runs after a cancel, or before the attempt is due, must revive nothing.
  if (!sub || !renewing(sub, now) || !mandate || !lapsed(mandate, now)) return false;
  const network = deps.chains.get(sub.network);
  const token = network && findToken(network, sub.token_symbol);
  // Only where the approval belongs to this subscription (EVM): a Solana delegate or Stellar allowance names our
  // operator, so an approval the payer gave for another team's subscription would revive this one. There the payer
  // subscribes again (with a consent naming the payee) once the mandate has lapsed.
  if (!network || !token || !approvalNamesPayee(network.family)) return false;
  const autopay = await deps.pool.subscription({
    op: "readAutopay",
    request: { network, token, payer: sub.payment_account, payee: sub.payee_wallet, tokenId: sub.token_id ?? undefined },
  });
  const fresh = autopay.ok && autopay.installed && autopay.remaining > 0n && (autopay.expiresAt === null || autopay.expiresAt * 1000 > now.getTime());
  if (!fresh || !approvedAgain(mandate, autopay)) return false;
  return deps.sql.begin(async (tx) => {
    // The subscription first, as a cancel and the renewal lock them: a cancel meanwhile leaves the mandate lapsed.
    const live = await lockSubscription(tx, tenant, sub.id);
    if (!live || !renewing(live, now)) return false;
    const current = await lockMandateOf(tx, tenant, sub.id);
    if (!current || !lapsed(current, now) || !approvedAgain(current, autopay)) return false; // renewed or revoked meanwhile
    const expiresAt = autopay.expiresAt === null ? null : new Date(autopay.expiresAt * 1000);
    const renewed = await renewMandateTerms(tx, tenant, current.id, { amount: autopay.remaining, expiresAt, now });
    if (!renewed) return false;
    await recordAudit(tx, {
      ...tenant,
      actor,
      action: "mandate.reapproved",
      resourceType: "mandate",
      resourceId: current.id,
      details: { from: current.status, authorizedAmount: renewed.authorized_amount, expiresAt: expiresAt?.toISOString() ?? null },
    });
    return true;
  });
}
