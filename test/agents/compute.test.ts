/** The auto-topup rules (src/modules/agents/compute.ts): the crossing rule, the funding checks, the UTC day. */
import { expect, test } from "bun:test";
import { crossingAction, dispatchReference, nextUtcDay, refuseDraw, retryAt, utcDayStart } from "../../src/modules/agents/compute";
import type { FundingMandateRow } from "../../src/modules/agents/rows";

const mandate = (over: Partial<FundingMandateRow> = {}): FundingMandateRow => ({
  id: "fmd_x",
  team_id: "team_x",
  environment: "development",
  network: "anvil",
  token_symbol: "USDC",
  funding_wallet: "0x0000000000000000000000000000000000000001",
  operator: "0x0000000000000000000000000000000000000002",
  authorized_amount: "100",
  remaining_amount: "100",
  daily_cap: "50",
  signed_total: "100",
  status: "ACTIVE",
  created_at: new Date(0),
  updated_at: new Date(0),
  seq: 1n,
  ...over,
});

test("one top-up per crossing: below and armed dispatches, below and disarmed waits, at or above re-arms", () => {
  expect(crossingAction(9n, 10n, true)).toBe("dispatch");
  expect(crossingAction(9n, 10n, false)).toBe("none");
  expect(crossingAction(10n, 10n, false)).toBe("rearm");
  expect(crossingAction(11n, 10n, true)).toBe("none");
  expect(crossingAction(0n, 1n, true)).toBe("dispatch");
});

test("a draw is refused without an active mandate of the token, beyond what is left of it, or beyond the day's cap", () => {
  expect(refuseDraw(undefined, 0n, 1n, "USDC")?.reason).toBe("mandate_missing");
  expect(refuseDraw(mandate({ status: "REVOKED" }), 0n, 1n, "USDC")?.reason).toBe("mandate_revoked");
  expect(refuseDraw(mandate(), 0n, 1n, "EURC")?.reason).toBe("token_mismatch");
  expect(refuseDraw(mandate({ remaining_amount: "9" }), 0n, 10n, "USDC")?.reason).toBe("mandate_exhausted");
  expect(refuseDraw(mandate(), 41n, 10n, "USDC")?.reason).toBe("daily_cap_exceeded");
  expect(refuseDraw(mandate(), 40n, 10n, "USDC")).toBeNull(); // exactly the cap
  expect(refuseDraw(mandate({ remaining_amount: "10" }), 0n, 10n, "USDC")).toBeNull(); // exactly what is left
});

test("the daily cap counts from midnight UTC, whatever the offset the instant was written with", () => {
  expect(utcDayStart(new Date("2027-03-01T23:59:59.999Z")).toISOString()).toBe("2027-03-01T00:00:00.000Z");
  expect(utcDayStart(new Date("2027-03-02T00:30:00+02:00")).toISOString()).toBe("2027-03-01T00:00:00.000Z");
  expect(nextUtcDay(new Date("2027-02-28T23:59:59.999Z")).toISOString()).toBe("2027-03-01T00:00:00.000Z");
  expect(nextUtcDay(new Date("2027-03-01T00:00:00.000Z")).toISOString()).toBe("2027-03-02T00:00:00.000Z");
});

test("a dispatch's reference is 32 bytes of hex derived from its id alone", () => {
  expect(dispatchReference("atd_a")).toMatch(/^[0-9a-f]{64}$/);
  expect(dispatchReference("atd_a")).toBe(dispatchReference("atd_a"));
  expect(dispatchReference("atd_a")).not.toBe(dispatchReference("atd_b"));
});

test("a refused crossing is retried: the daily cap at the next UTC midnight, anything else after a doubling backoff up to six hours", () => {
  const now = new Date("2027-03-01T12:00:00.000Z");
  const after = (reason: string, earlier: number) => (retryAt(now, reason, earlier).getTime() - now.getTime()) / 60_000;
  expect(retryAt(now, "daily_cap_exceeded", 3).toISOString()).toBe("2027-03-02T00:00:00.000Z");
  expect([0, 1, 2, 3].map((n) => after("not_sent", n))).toEqual([5, 10, 20, 40]);
  expect(after("insufficient_allowance", 0)).toBe(5);
  expect(after("mandate_missing", 6)).toBe(320);
  expect(after("mandate_missing", 7)).toBe(360);
  expect(after("mandate_missing", 1_000)).toBe(360);
});
