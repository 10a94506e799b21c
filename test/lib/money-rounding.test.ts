import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { ApiError } from "../../src/lib/errors";
import {
  divRound,
  formatTaxRate,
  lineTax,
  MAX_MICRO,
  mulDivRound,
  parseMoney,
  parseTaxRate,
  parseTaxRateField,
  parseTokenAmount,
  prorate,
} from "../../src/lib/money";

const abs = (n: bigint) => (n < 0n ? -n : n);
const nonZero = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).filter((d) => d !== 0n);
const anyInt = fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n });

describe("rounding: half away from zero", () => {
  test("ties go away from zero, on both sides", () => {
    expect([5n, 15n, 25n, -5n, -15n, -25n].map((n) => divRound(n, 10n))).toEqual([1n, 2n, 3n, -1n, -2n, -3n]);
    expect([14n, 16n, -14n, -16n].map((n) => divRound(n, 10n))).toEqual([1n, 2n, -1n, -2n]);
    expect(divRound(5n, -10n)).toBe(-1n);
    expect(() => divRound(1n, 0n)).toThrow(RangeError);
  });

  test("the result is the nearest integer, and a tie lands on the larger magnitude", () => {
    fc.assert(
      fc.property(anyInt, nonZero, (n, d) => {
        const q = divRound(n, d);
        const twiceError = abs(2n * (n - q * d)); // |n/d - q| * 2|d|
        expect(twiceError <= abs(d)).toBe(true);
        if (twiceError === abs(d)) expect(abs(q * d) > abs(n)).toBe(true);
      }),
    );
  });

  test("every exact half rounds away from zero", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.bigInt({ min: 1n, max: 10n ** 20n }), (k, half) => {
        const d = 2n * half;
        const n = k * d + (k < 0n ? -half : half); // k + 1/2 away from zero: k.5 or -(|k|.5)
        expect(divRound(n, d)).toBe(k < 0n ? k - 1n : k + 1n);
      }),
    );
  });

  test("symmetric: negating the numerator or the denominator negates the result", () => {
    fc.assert(
      fc.property(anyInt, nonZero, (n, d) => {
        expect(divRound(-n, d)).toBe(-divRound(n, d));
        expect(divRound(n, -d)).toBe(-divRound(n, d));
      }),
    );
  });

  test("totals are sums of rounded lines; rounding the sum instead differs by at most n/2 micro-units", () => {
    const lines = fc.array(fc.bigInt({ min: -MAX_MICRO / 1000n, max: MAX_MICRO / 1000n }), { minLength: 1, maxLength: 50 });
    const rate = fc.bigInt({ min: 0n, max: 1_000_000n });
    fc.assert(
      fc.property(lines, rate, (subtotals, r) => {
        const sumOfRounded = subtotals.reduce((total, s) => total + lineTax(s, r), 0n);
        const roundedSum = lineTax(
          subtotals.reduce((a, b) => a + b, 0n),
          r,
        );
        expect(2n * abs(sumOfRounded - roundedSum) <= BigInt(subtotals.length)).toBe(true);
      }),
    );
    // Three lines of 0.000001 at 50%: each line's tax is 0.000001 (a tie, away from zero), the total 0.000003;
    // rounding the sum would say 0.000002. The invoice shows 0.000003, which is what its lines add up to.
    expect([1n, 1n, 1n].reduce((t, s) => t + lineTax(s, 500_000n), 0n)).toBe(3n);
    expect(lineTax(3n, 500_000n)).toBe(2n);
  });
});

describe("tax rates and lines", () => {
  test("a percentage with up to four fractional digits is an integer in 1/10000 of a percent", () => {
    expect(parseTaxRate("20")).toEqual({ ok: true, value: 200_000n });
    expect(parseTaxRate("7.25")).toEqual({ ok: true, value: 72_500n });
    expect(parseTaxRate("8.8750")).toEqual({ ok: true, value: 88_750n });
    expect(parseTaxRate("100")).toEqual({ ok: true, value: 1_000_000n });
    expect(formatTaxRate(72_500n)).toBe("7.2500");
    for (const bad of ["8.87501", "100.0001", "-1", "1e1", "7,25", " 7"]) expect(parseTaxRate(bad).ok).toBe(false);
  });

  test("a line's tax is round(subtotal x rate / 100)", () => {
    expect(lineTax(10_000_000n, 72_500n)).toBe(725_000n); // 10.000000 at 7.25% = 0.725000
    expect(lineTax(1_234_567n, 88_750n)).toBe(109_568n); // 0.10956782... -> 0.109568
    expect(lineTax(-1_234_567n, 88_750n)).toBe(-109_568n);
    expect(lineTax(1n, 500_000n)).toBe(1n); // 0.0000005 -> 0.000001
  });

  test("proration is round(price x remaining / period), once", () => {
    expect(prorate(30_000_000n, 10 * 86_400, 30 * 86_400)).toBe(10_000_000n);
    expect(prorate(10_000_000n, 1, 3)).toBe(3_333_333n);
    expect(prorate(20_000_000n, 1, 3)).toBe(6_666_667n);
    expect(prorate(10_000_000n, 0, 3)).toBe(0n);
    expect(() => prorate(1n, 1, 0)).toThrow(RangeError);
    expect(mulDivRound(7n, 1n, 2n)).toBe(4n);
  });
});

describe("money fields at the HTTP edge", () => {
  const failure = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return error;
    }
    throw new Error("expected a refusal");
  };

  test("a refused amount is a 400 {error, details} naming the field", () => {
    const error = failure(() => parseMoney("1e3", "body.amount"));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).body()).toEqual({
      error: "Validation failed",
      details: {
        "body.amount":
          "Expected a decimal string with at most 6 fractional digits from 0.000000 to 9223372036854.775807 (no exponent, no + sign, no spaces)",
      },
    });
    expect((failure(() => parseTaxRateField("7.123456", "body.lines.0.taxRate")) as ApiError).details).toHaveProperty(["body.lines.0.taxRate"]);
    expect((failure(() => parseTokenAmount("1.5", "body.topupAmount")) as ApiError).details).toHaveProperty(["body.topupAmount"]);
    expect((failure(() => parseMoney(null, "body.amount")) as ApiError).status).toBe(400);
  });

  test("accepted values come back as bigint", () => {
    expect(parseMoney("12.5", "body.amount")).toBe(12_500_000n);
    expect(parseMoney("-1", "body.amount", { signed: true })).toBe(-1_000_000n);
    expect(parseTokenAmount("25000000", "body.amount")).toBe(25_000_000n);
    expect(parseTaxRateField("7.25", "body.taxRate")).toBe(72_500n);
  });

  test("a JSON number is taken as written only when a double holds it exactly (15 significant digits)", () => {
    expect(parseMoney(12.5, "body.amount")).toBe(12_500_000n);
    expect(parseMoney(0.1, "body.amount")).toBe(100_000n);
    expect(parseMoney(123456789.123456, "body.amount")).toBe(123_456_789_123_456n);
    for (const bad of [0.1 + 0.2, 1e21, 1e-7, Number.NaN, Infinity, -1])
      expect((failure(() => parseMoney(bad, "body.amount")) as ApiError).status).toBe(400);
  });
});
