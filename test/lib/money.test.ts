import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import {
  formatFixed,
  formatMicro,
  MAX_MICRO,
  MAX_TOKEN_UNITS,
  microToToken,
  parseFixed,
  parseMicro,
  parseTokenUnits,
  tokenDecimalFormat,
  tokenToMicro,
} from "../../src/lib/money";

const micro = fc.bigInt({ min: 0n, max: MAX_MICRO });
const signedMicro = fc.bigInt({ min: -MAX_MICRO, max: MAX_MICRO });
const decimals = fc.integer({ min: 0, max: 18 });
const value = (text: string, signed = false) => {
  const parsed = parseMicro(text, signed);
  if (!parsed.ok) throw new Error(`refused ${text}: ${parsed.expected}`);
  return parsed.value;
};

describe("decimal strings <-> micro-units", () => {
  test("the spec's six-digit strings are read exactly, beyond Number's integers", () => {
    expect(value("12.500000")).toBe(12_500_000n);
    expect(value("12.5")).toBe(12_500_000n);
    expect(value("0.000001")).toBe(1n);
    expect(value("007.25")).toBe(7_250_000n);
    expect(value("9223372036854.775807")).toBe(MAX_MICRO);
    expect(value("-0.000001", true)).toBe(-1n);
    expect(formatMicro(12_500_000n)).toBe("12.500000");
    expect(formatMicro(0n)).toBe("0.000000");
    expect(formatMicro(-1n)).toBe("-0.000001");
    expect(formatMicro(MAX_MICRO)).toBe("9223372036854.775807");
  });

  test("print(parse(s)) is s for every canonical string, and parse(print(n)) is n for every in-range amount", () => {
    fc.assert(
      fc.property(signedMicro, (n) => {
        const text = formatMicro(n);
        expect(text).toMatch(/^-?(0|[1-9]\d*)\.\d{6}$/);
        expect(value(text, true)).toBe(n);
        expect(formatMicro(value(text, true))).toBe(text);
      }),
    );
  });

  test("shorter fractions and leading zeros read as the same amount", () => {
    fc.assert(
      fc.property(micro, fc.integer({ min: 0, max: 3 }), (n, zeros) => {
        const [whole, fraction] = formatMicro(n).split(".") as [string, string];
        const trimmed = fraction.replace(/0+$/, "");
        expect(value("0".repeat(zeros) + whole + (trimmed ? `.${trimmed}` : ""))).toBe(n);
      }),
    );
  });

  const refused = [
    ["exponent notation", ["1e3", "1E-2", "1.5e2", "Infinity", "NaN"]],
    ["more than six fractional digits", ["0.30000000000000000001", "0.0000001", "1.0000000"]],
    ["a + sign, or a - sign where negatives are not allowed", ["+1", "-0.1", "-0", "--1", "+-1"]],
    ["whitespace and junk", [" 1", "1 ", "1\n", "", ".", "1.", ".5", "0x10", "1,5", "1_000", "١"]],
    ["values past the int8 range", ["9223372036854.775808", "10000000000000", "9".repeat(200)]],
  ] as const;
  for (const [what, inputs] of refused) {
    test(`refuses ${what}`, () => {
      for (const text of inputs) expect(parseMicro(text)).toEqual({ ok: false, expected: expect.stringContaining("Expected a decimal string") });
    });
  }

  test("signed amounts stop at -(2^63 - 1) so negating one never leaves the range", () => {
    expect(value("-9223372036854.775807", true)).toBe(-MAX_MICRO);
    expect(parseMicro("-9223372036854.775808", true).ok).toBe(false);
  });
});

describe("token units", () => {
  test("integer strings up to 2^256 - 1, nothing else", () => {
    expect(parseTokenUnits("25000000")).toEqual({ ok: true, value: 25_000_000n });
    expect(parseTokenUnits(MAX_TOKEN_UNITS.toString())).toEqual({ ok: true, value: MAX_TOKEN_UNITS });
    for (const bad of [(MAX_TOKEN_UNITS + 1n).toString(), "1.0", "-1", "+1", "1e18", " 1", ""]) expect(parseTokenUnits(bad).ok).toBe(false);
  });

  test("decimal token amounts at any scale round-trip", () => {
    fc.assert(
      fc.property(decimals, fc.bigInt({ min: 0n, max: MAX_TOKEN_UNITS }), (d, units) => {
        const format = tokenDecimalFormat(d);
        expect(parseFixed(formatFixed(units, d), format)).toEqual({ ok: true, value: units });
      }),
    );
  });
});

describe("micro-units <-> token units", () => {
  test("USDC (6) is the identity, 18 decimals multiplies by 10^12, 2 decimals divides exactly", () => {
    expect(microToToken(12_500_000n, 6)).toEqual({ ok: true, value: 12_500_000n });
    expect(microToToken(12_500_000n, 18)).toEqual({ ok: true, value: 12_500_000_000_000_000_000n });
    expect(microToToken(12_500_000n, 7)).toEqual({ ok: true, value: 125_000_000n });
    expect(microToToken(12_340_000n, 2)).toEqual({ ok: true, value: 1234n });
    expect(microToToken(12_345_000n, 2).ok).toBe(false);
    expect(microToToken(-1n, 18).ok).toBe(false);
    expect(microToToken(1n, 1.5).ok).toBe(false);
  });

  test("an amount the token cannot hold is refused", () => {
    expect(microToToken(MAX_MICRO, 70).ok).toBe(false);
    expect(tokenToMicro(MAX_TOKEN_UNITS, 0).ok).toBe(false);
    expect(tokenToMicro(1n, 18).ok).toBe(false); // 1 wei is finer than a micro-unit
  });

  test("every micro amount round-trips through any token of 6 to 18 decimals", () => {
    fc.assert(
      fc.property(micro, fc.integer({ min: 6, max: 18 }), (m, d) => {
        const units = microToToken(m, d);
        expect(units.ok).toBe(true);
        if (units.ok) expect(tokenToMicro(units.value, d)).toEqual({ ok: true, value: m });
      }),
    );
  });

  test("below 6 decimals a micro amount converts exactly when the token can represent it, and is refused otherwise", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_MICRO / 1_000_000n }), fc.integer({ min: 0, max: 5 }), fc.boolean(), (whole, d, exact) => {
        const step = 10n ** BigInt(6 - d);
        const m = whole * step + (exact ? 0n : 1n);
        const units = microToToken(m, d);
        expect(units.ok).toBe(m % step === 0n);
        if (units.ok) expect(tokenToMicro(units.value, d)).toEqual({ ok: true, value: m });
      }),
    );
  });

  test("token units round-trip through micro-units when they are whole micro-units", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), decimals, (units, d) => {
        const m = tokenToMicro(units, d);
        const exact =
          d <= 6 ? units * 10n ** BigInt(6 - d) <= MAX_MICRO : units % 10n ** BigInt(d - 6) === 0n && units / 10n ** BigInt(d - 6) <= MAX_MICRO;
        expect(m.ok).toBe(exact);
        if (m.ok) expect(microToToken(m.value, d)).toEqual({ ok: true, value: units });
      }),
    );
  });
});
