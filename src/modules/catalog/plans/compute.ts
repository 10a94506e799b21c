/**
 * The rules of a plan's fields, prices and on-chain ids, checked before anything is written (every
 * problem of a request reported at once, see problems.ts).
 */
import { networkAllowedIn, type ChainRegistry } from "../../../lib/networks";
import { MICRO } from "../../../lib/money";
import type { Environment } from "../../../lib/tenant";
import { checkCurrencyAmount } from "../currency";
import { BILLING_PERIODS, MAX_TRIAL_DAYS, ONCHAIN_ID, PLAN_KINDS, type BillingPeriod } from "./schemas";
import type { Problems } from "../problems";

export interface PriceValue {
  billingPeriod: BillingPeriod;
  amount: bigint;
  currency: string;
}

/** A price's amount and currency: micro-units greater than 0 that every token of the currency can represent. */
export function checkPrice(
  p: Problems,
  { chains, environment }: { chains: ChainRegistry; environment: Environment },
  at: string,
  input: { amount: unknown; currency: unknown },
): { amount: bigint; currency: string } | null {
  const amount = p.fixed(`${at}amount`, input.amount, MICRO, (v) =>
    v === 0n ? "Expected an amount greater than 0 (a free plan has no price)" : null,
  );
  if (typeof input.currency !== "string" || input.currency.length === 0) {
    p.add(`${at}currency`, "Expected a token symbol such as USDC");
    return null;
  }
  const checked = checkCurrencyAmount(chains, environment, input.currency, amount);
  if (!checked.ok) {
    p.add(`${at}${checked.on}`, checked.expected);
    return null;
  }
  return amount === null ? null : { amount, currency: checked.symbol };
}

export function checkPeriod(p: Problems, field: string, value: unknown): value is BillingPeriod {
  if ((BILLING_PERIODS as readonly unknown[]).includes(value)) return true;
  p.add(field, `Expected one of: ${BILLING_PERIODS.join(", ")}`);
  return false;
}

/** Prices given at creation: at most one per billing period. */
export function checkPrices(
  p: Problems,
  chains: ChainRegistry,
  environment: Environment,
  prices: { billingPeriod: unknown; amount: unknown; currency: unknown }[],
): PriceValue[] {
  const out: PriceValue[] = [];
  const seen = new Set<unknown>();
  prices.forEach((price, i) => {
    const periodOk = checkPeriod(p, `prices[${i}].billingPeriod`, price.billingPeriod);
    if (periodOk && seen.has(price.billingPeriod))
      p.add(`prices[${i}].billingPeriod`, `A plan has at most one ${String(price.billingPeriod)} price; this one is given twice`);
    seen.add(price.billingPeriod);
    const value = checkPrice(p, { chains, environment }, `prices[${i}].`, price);
    if (periodOk && value) out.push({ billingPeriod: price.billingPeriod as BillingPeriod, ...value });
  });
  return out;
}

/** On-chain ids per network: a network of the registry this environment settles on, an id of the allowed charset. */
export function checkOnchainIds(
  p: Problems,
  chains: ChainRegistry,
  environment: Environment,
  ids: Record<string, string | null>,
): { set: [string, string][]; remove: string[] } {
  const set: [string, string][] = [];
  const remove: string[] = [];
  for (const [network, id] of Object.entries(ids)) {
    const config = chains.get(network);
    if (!config || !networkAllowedIn(config, environment)) {
      const allowed = chains
        .list()
        .filter((n) => networkAllowedIn(n, environment))
        .map((n) => n.id);
      p.add(`onchainPlanIds.${network}`, `Expected a network this environment settles on: ${allowed.join(", ")}`);
    } else if (id === null) remove.push(network);
    else if (typeof id !== "string" || !ONCHAIN_ID.test(id)) p.add(`onchainPlanIds.${network}`, "Expected 1 to 128 of A-Z a-z 0-9 _ . : -");
    else set.push([network, id]);
  }
  return { set, remove };
}

export interface PlanFieldInput {
  name?: unknown;
  kind?: unknown;
  tier?: unknown;
  description?: unknown;
  trialDays?: unknown;
}

/** The plain fields of a create or a patch (only those given are checked). */
export function checkPlanFields(p: Problems, f: PlanFieldInput): void {
  if (f.name !== undefined) p.text("name", f.name);
  if (f.kind !== undefined && !(PLAN_KINDS as readonly unknown[]).includes(f.kind)) p.add("kind", `Expected one of: ${PLAN_KINDS.join(", ")}`);
  if (f.tier !== undefined) p.text("tier", f.tier, 100);
  if (f.description !== undefined && f.description !== null && (typeof f.description !== "string" || f.description.length > 2000))
    p.add("description", "Expected a string of at most 2000 characters");
  if (f.trialDays !== undefined) p.integer("trialDays", f.trialDays, 0, MAX_TRIAL_DAYS);
}
