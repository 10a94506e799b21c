import { findToken } from "../../../lib/networks";
import { apiError } from "../../../lib/errors";
import { hashOfNoFamily } from "../../../chains/addresses";
import type { ChainRegistry } from "../../../lib/networks";
import { microToTokenCeil } from "../../../lib/money";
import type { Tenant } from "../../../lib/tenant";
import type { Actor } from "../../audit/repo";
import { alreadyScheduled, applyScheduled, applyTerms, pendingChangeOf, releaseScheduledCoupon, unschedule } from "./outcome";
import { quotePlanChange, type Quote } from "./quote";
import { type SubscriptionDeps, type TxContext, type ServiceContext } from "../context";
import { issueChangeInvoice, redeem, requote, resultOf, type ChangeOutcome, type PlanChangeCommand, type PlanChangeResult } from "./steps";
import { paidByTransfer, pulledThroughMandate } from "./payments";
import { quotedRequest } from "./quotes";

export async function changePlan(
  { deps, tenant, actor, now }: ServiceContext,
  companyId: string,
  command: PlanChangeCommand,
): Promise<PlanChangeResult> {
  checkChangeFields(deps.chains, command);
  const { request, pricedAt } = command.quoteId
    ? await quotedRequest(deps.sql, tenant, { companyId, quoteId: command.quoteId, body: command, now })
    : { request: command, pricedAt: now };
  const result = await makeChange(deps, tenant, actor, companyId, { ...command, ...request }, now, pricedAt);
  // This instance's entitlement cache at once (committed); other instances hear it by NOTIFY (publishCompanyChanged).
  if (result.effective === "now") deps.companyChanged?.(tenant, companyId);
  return { ...result, pricedAt: pricedAt.toISOString(), quoteId: command.quoteId };
}

/**
 * The command's own fields, before the company or its subscription is read: a hash no configured network
 * could have is a 400 naming it, never a 404 or a 409 about the company. (Routes that look the company up
 * themselves call this first.)
 */
export function checkChangeFields(chains: ChainRegistry, command: PlanChangeCommand): void {
  const malformed = command.txHash ? hashOfNoFamily(chains.list(), command.txHash) : null;
  if (malformed) throw apiError("validation_failed", "Validation failed", { "body.txHash": malformed });
}

async function makeChange(
  deps: SubscriptionDeps,
  tenant: Tenant,
  actor: Actor,
  companyId: string,
  command: PlanChangeCommand,
  now: Date,
  pricedAt: Date,
): Promise<ChangeOutcome> {
  const quote = await quotePlanChange(deps.sql, tenant, { companyId, request: command, now: pricedAt });
  const { change, sub } = quote;
  const payable = change.invoice && change.invoice.total > 0n ? change.invoice.total : 0n;
  if (command.txHash && (!change.changed || payable === 0n || change.effective === "period_end"))
    throw apiError("validation_failed", "Validation failed", {
      "body.txHash":
        "Nothing is owed now for this change (no change, a change at period end, a credit, or the credit balance covers it): send it without txHash",
    });
  if (!change.changed) return sub.scheduled_plan_id ? keepTerms(deps, tenant, actor, companyId, command, quote, now) : resultOf(sub, null, "now");
  if (payable === 0n || change.effective === "period_end") {
    return deps.sql.begin(async (tx) => {
      const c: TxContext = { deps, tx, tenant, actor, now };
      const { locked, again } = await requote(c, { companyId, command, quoted: quote });
      if (again.change.effective === "period_end") {
        // A retry of the change already scheduled redeems nothing more; another one replaces it.
        if (alreadyScheduled(locked, again)) return resultOf(locked, null, "period_end");
        await releaseScheduledCoupon(c, locked);
        return resultOf(await applyScheduled(c, locked, again, await redeem(c, locked, again)), null, "period_end");
      }
      await releaseScheduledCoupon(c, locked);
      const redemptionId = await redeem(c, locked, again);
      const invoiceId = again.change.invoice ? (await issueChangeInvoice(c, locked, { q: again, command, issue: true })).id : null;
      const paid = { invoiceId, creditToBalance: again.change.creditToBalance };
      const applied = await applyTerms(c, locked, pendingChangeOf(again, redemptionId), paid);
      return resultOf(applied, invoiceId, "now");
    });
  }
  const token = findToken(deps.chains.get(sub.network)!, sub.token_symbol)!;
  const amount = microToTokenCeil(payable, token.decimals);
  if (!amount.ok) throw apiError("plan_change_not_allowed", `The proration cannot be paid in ${sub.token_symbol}: ${amount.expected}`);
  if (command.txHash) return paidByTransfer({ deps, tenant, actor, now }, { companyId, command, quote, amount: amount.value });
  return pulledThroughMandate({ deps, tenant, actor, now }, { companyId, command, quote, amount: amount.value });
}

/** The company asks for the terms it has while a change is scheduled: the scheduled change is undone. */
const keepTerms = (deps: SubscriptionDeps, tenant: Tenant, actor: Actor, companyId: string, command: PlanChangeCommand, quote: Quote, now: Date) =>
  deps.sql.begin(async (tx) => {
    const c: TxContext = { deps, tx, tenant, actor, now };
    const { locked } = await requote(c, { companyId, command, quoted: quote });
    return resultOf(locked.scheduled_plan_id ? await unschedule(c, locked) : locked, null, "now");
  });
