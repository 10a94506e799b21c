/**
 * The two rounded conversions between token units and invoice micro-units: what a payment is worth on an
 * invoice (down), and what a transfer must move to settle an amount (up). Exact where exact is possible.
 */
import { expect, test } from "bun:test";
import { microToTokenCeil, tokenToMicroFloor, MAX_MICRO } from "../../src/lib/money";

const value = (r: { ok: boolean; value?: bigint }) => (r.ok ? r.value : r);

test("tokenToMicroFloor: exact at 6 decimals and below, rounded down past them", () => {
  expect(value(tokenToMicroFloor(25_000_000n, 6))).toBe(25_000_000n);
  expect(value(tokenToMicroFloor(125n, 2))).toBe(1_250_000n);
  expect(value(tokenToMicroFloor(250_000_009n, 7))).toBe(25_000_000n); // Stellar: 25.0000009 -> 25.000000
  expect(value(tokenToMicroFloor(25_000_000_000_000_000_123n, 18))).toBe(25_000_000n);
  expect(value(tokenToMicroFloor(999_999_999_999n, 18))).toBe(0n); // less than a micro-unit is worth 0 on an invoice
});

test("tokenToMicroFloor: a coarser precision rounds down to what a 2-decimal token of the currency can represent", () => {
  expect(value(tokenToMicroFloor(1_239_999n, 6, 2))).toBe(1_230_000n);
  expect(value(tokenToMicroFloor(1_239_999n, 6, 6))).toBe(1_239_999n);
  expect(value(tokenToMicroFloor(12_399_999n, 7, 0))).toBe(1_000_000n);
});

test("tokenToMicroFloor: refuses negative amounts, bad decimals and values past the micro-unit range", () => {
  expect(tokenToMicroFloor(-1n, 6).ok).toBe(false);
  expect(tokenToMicroFloor(1n, 256).ok).toBe(false);
  expect(tokenToMicroFloor(MAX_MICRO, 6).ok).toBe(true);
  expect(tokenToMicroFloor(MAX_MICRO + 1n, 6).ok).toBe(false);
});

test("microToTokenCeil: exact at 6 decimals and more, rounded up below", () => {
  expect(value(microToTokenCeil(120_000_000n, 6))).toBe(120_000_000n);
  expect(value(microToTokenCeil(120_000_000n, 18))).toBe(120n * 10n ** 18n);
  expect(value(microToTokenCeil(1_000n, 2))).toBe(1n); // 0.001 needs 0.01 of a 2-decimal token
  expect(value(microToTokenCeil(10_000n, 2))).toBe(1n);
  expect(value(microToTokenCeil(10_001n, 2))).toBe(2n);
  expect(value(microToTokenCeil(0n, 2))).toBe(0n);
  expect(microToTokenCeil(-1n, 2).ok).toBe(false);
});
