/**
 * The metering rules as ONE table of cases: whether a use is accepted, and what it spends. Two sides decide
 * a use and must agree on every row: TypeScript (compute.ts `decide`, what /check answers, and `inBurnOrder`,
 * the order the caches hold) in test/entitlements/metering-ts.test.ts, and PostgreSQL (meter_settle(), the binding
 * decision of every consume and track) in test/entitlements/metering-pg.test.ts. A rule changed on one side only
 * fails one of the two.
 *
 * Burn order: soonest-expiring first, never-expiring last, then oldest (lots are listed oldest first);
 * expired lots, and a lot expiring exactly now, are never spent nor counted.
 */
import type { Outcome } from "../../src/modules/entitlements/usage";

export const INT8_MAX = 2n ** 63n - 1n;

export type CaseGrant =
  | { kind: "none" }
  | { kind: "boolean"; enabled: boolean }
  | { kind: "trait"; minSeats: string }
  | { kind: "quota"; limit: bigint }
  | { kind: "credit"; creditsPerUse: bigint };

/** A credit lot: what is left, and when it expires, in ms from now (null: never). Listed oldest first. */
export interface CaseLot {
  remaining: bigint;
  expiresIn: number | null;
}

export interface MeteringCase {
  name: string;
  grant: CaseGrant;
  /** the company's traits (trait grants compare `seats`) */
  traits?: Record<string, unknown>;
  /** units used in the current period before the use; undefined: no counter yet */
  used?: bigint;
  lots?: CaseLot[];
  quantity: bigint;
  /** sent twice with one idempotency key: the retry answers the first outcome and spends nothing more */
  retry?: true;
  outcome: Outcome;
  /** the counter after the use (default: unchanged; 0 when there was none) */
  usedAfter?: bigint;
  /** each lot's remaining after the use, in `lots` order (default: unchanged) */
  lotsAfter?: bigint[];
}

/** What a use is made of, without what it should give. */
export type CaseInput = Pick<MeteringCase, "grant" | "traits" | "used" | "lots" | "quantity" | "retry">;

export const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const never = (remaining: bigint): CaseLot => ({ remaining, expiresIn: null });
const expiring = (remaining: bigint, expiresIn: number): CaseLot => ({ remaining, expiresIn });

const quota = (limit: bigint): CaseGrant => ({ kind: "quota", limit });
const credit = (creditsPerUse: bigint): CaseGrant => ({ kind: "credit", creditsPerUse });

export const METERING_CASES: MeteringCase[] = [
  // No quota or credits: the grant alone decides.
  { name: "boolean on: recorded, nothing spent", grant: { kind: "boolean", enabled: true }, quantity: 1000n, lots: [never(5n)], outcome: "accepted" },
  { name: "boolean off: not enabled", grant: { kind: "boolean", enabled: false }, quantity: 1n, outcome: "feature_not_enabled" },
  { name: "no grant: not enabled", grant: { kind: "none" }, quantity: 1n, lots: [never(5n)], outcome: "feature_not_enabled" },
  { name: "trait rule met: recorded", grant: { kind: "trait", minSeats: "10" }, traits: { seats: 10 }, quantity: 1n, outcome: "accepted" },
  {
    name: "trait rule not met: not enabled",
    grant: { kind: "trait", minSeats: "10" },
    traits: { seats: 9 },
    quantity: 1n,
    outcome: "feature_not_enabled",
  },

  // Quotas: all or nothing within the period's limit.
  { name: "quota: below the limit", grant: quota(5n), used: 3n, quantity: 1n, outcome: "accepted", usedAfter: 4n },
  { name: "quota: a new period starts a counter", grant: quota(5n), quantity: 1n, outcome: "accepted", usedAfter: 1n },
  { name: "quota: the last unit reaches the limit exactly", grant: quota(5n), used: 4n, quantity: 1n, outcome: "accepted", usedAfter: 5n },
  { name: "quota: at the limit, one more is refused", grant: quota(5n), used: 5n, quantity: 1n, outcome: "limit_reached" },
  { name: "quota: quantity > 1 that fits exactly", grant: quota(5n), used: 2n, quantity: 3n, outcome: "accepted", usedAfter: 5n },
  { name: "quota: quantity > 1 crossing the limit spends nothing", grant: quota(5n), used: 3n, quantity: 3n, outcome: "limit_reached" },
  { name: "quota: limit 0", grant: quota(0n), quantity: 1n, outcome: "limit_reached" },
  { name: "quota: usage above a lowered limit", grant: quota(3n), used: 5n, quantity: 1n, outcome: "limit_reached" },
  {
    name: "quota: the last unit of an int8-max limit",
    grant: quota(INT8_MAX),
    used: INT8_MAX - 1n,
    quantity: 1n,
    outcome: "accepted",
    usedAfter: INT8_MAX,
  },
  { name: "quota: at a limit of int8 max - 1", grant: quota(INT8_MAX - 1n), used: INT8_MAX - 1n, quantity: 1n, outcome: "limit_reached" },
  { name: "quota: at an int8-max limit, one more", grant: quota(INT8_MAX), used: INT8_MAX, quantity: 1n, outcome: "limit_reached" },
  { name: "quota: quantity crossing an int8-max limit", grant: quota(INT8_MAX), used: INT8_MAX - 1n, quantity: 2n, outcome: "limit_reached" },
  {
    name: "quota: a retry of the last unit replays, not refused",
    grant: quota(5n),
    used: 4n,
    quantity: 1n,
    retry: true,
    outcome: "accepted",
    usedAfter: 5n,
  },
  { name: "quota: a retry of a refusal stays refused", grant: quota(5n), used: 5n, quantity: 1n, retry: true, outcome: "limit_reached" },

  // Credits: creditsPerUse x quantity from the spendable lots, in burn order.
  { name: "credit: zero balance (no lots)", grant: credit(2n), quantity: 1n, outcome: "insufficient_credits" },
  { name: "credit: one credit short", grant: credit(2n), lots: [never(1n)], quantity: 1n, outcome: "insufficient_credits" },
  { name: "credit: balance exactly the cost", grant: credit(2n), lots: [never(6n)], quantity: 3n, outcome: "accepted", lotsAfter: [0n] },
  {
    name: "credit: soonest-expiring first, never-expiring last",
    grant: credit(1n),
    lots: [never(10n), expiring(10n, 2 * DAY), expiring(10n, DAY)],
    quantity: 15n,
    outcome: "accepted",
    lotsAfter: [10n, 5n, 0n],
  },
  {
    name: "credit: spilling into the never-expiring lot",
    grant: credit(1n),
    lots: [never(10n), expiring(3n, DAY)],
    quantity: 5n,
    outcome: "accepted",
    lotsAfter: [8n, 0n],
  },
  {
    name: "credit: cost is creditsPerUse x quantity",
    grant: credit(3n),
    lots: [expiring(5n, DAY), never(10n)],
    quantity: 4n,
    outcome: "accepted",
    lotsAfter: [0n, 3n],
  },
  {
    name: "credit: expired lots are not counted",
    grant: credit(1n),
    lots: [expiring(100n, -DAY), never(3n)],
    quantity: 4n,
    outcome: "insufficient_credits",
  },
  {
    name: "credit: expired lots are not spent",
    grant: credit(1n),
    lots: [expiring(100n, -DAY), never(5n)],
    quantity: 4n,
    outcome: "accepted",
    lotsAfter: [100n, 1n],
  },
  {
    name: "credit: a lot expiring exactly now is not spendable",
    grant: credit(1n),
    lots: [expiring(10n, 0), never(2n)],
    quantity: 3n,
    outcome: "insufficient_credits",
  },
  {
    name: "credit: a lot expiring exactly now is skipped",
    grant: credit(1n),
    lots: [expiring(10n, 0), never(5n)],
    quantity: 3n,
    outcome: "accepted",
    lotsAfter: [10n, 2n],
  },
  {
    name: "credit: a lot expiring 1 ms from now is spent first",
    grant: credit(1n),
    lots: [never(5n), expiring(2n, 1)],
    quantity: 3n,
    outcome: "accepted",
    lotsAfter: [4n, 0n],
  },
  {
    name: "credit: ties on expiry burn oldest first",
    grant: credit(1n),
    lots: [expiring(4n, HOUR), expiring(4n, HOUR), expiring(4n, HOUR), never(4n)],
    quantity: 9n,
    outcome: "accepted",
    lotsAfter: [0n, 0n, 3n, 4n],
  },
  {
    name: "credit: never-expiring lots burn oldest first",
    grant: credit(1n),
    lots: [never(3n), never(3n)],
    quantity: 4n,
    outcome: "accepted",
    lotsAfter: [0n, 2n],
  },
  {
    name: "credit: empty lots are passed over",
    grant: credit(1n),
    lots: [expiring(0n, HOUR), expiring(5n, 2 * HOUR)],
    quantity: 2n,
    outcome: "accepted",
    lotsAfter: [0n, 3n],
  },
  {
    name: "credit: one credit of an int8-max lot",
    grant: credit(1n),
    lots: [never(INT8_MAX)],
    quantity: 1n,
    outcome: "accepted",
    lotsAfter: [INT8_MAX - 1n],
  },
  {
    name: "credit: an int8-max cost that empties an int8-max lot",
    grant: credit(INT8_MAX),
    lots: [never(INT8_MAX)],
    quantity: 1n,
    outcome: "accepted",
    lotsAfter: [0n],
  },
  { name: "credit: a cost past int8 max", grant: credit(INT8_MAX), lots: [never(INT8_MAX)], quantity: 2n, outcome: "insufficient_credits" },
  {
    name: "credit: a balance past int8 max",
    grant: credit(1n),
    lots: [never(INT8_MAX), expiring(1n, DAY)],
    quantity: 1n,
    outcome: "accepted",
    lotsAfter: [INT8_MAX, 0n],
  },
  {
    name: "credit: a retry replays the first outcome and burns once",
    grant: credit(2n),
    lots: [never(5n)],
    quantity: 2n,
    retry: true,
    outcome: "accepted",
    lotsAfter: [1n],
  },
];
