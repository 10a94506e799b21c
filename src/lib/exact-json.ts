/**
 * JSON checked so that a number is taken only when it is exactly what the caller sent. JSON.parse rounds
 * a literal to the nearest double in silence (`1.00000000000000000001` becomes 1, `1e-400` becomes 0);
 * a quantity or a trait must not change on the way in. The rule: the decimal value of the literal
 * equals the decimal value of the double's shortest round-trip form (`String(n)`), so `0.3`, `1.0`,
 * `1e2` and `-0` are taken and the two above are not. The literal's text comes from the reviver's
 * `context.source` (TC39 "JSON.parse source text access", in Bun's JavaScriptCore).
 *
 * A reviver makes JSON.parse ten times slower (~8.6 us against ~0.8 us for a 270-byte event), so the
 * body is parsed plainly and a second time with the reviver only when its text may hold such a number
 * (a regular-expression test, ~0.5 us on that event). A literal of at most 15 significant digits
 * (DBL_DIG) without an exponent is always exact, so only a run of 16 digits or dots, or an exponent, can
 * hide one; the test may also fire on a string (an id with 16 digits), which only costs the slow parse.
 */

import { childPath } from "./field-path";

export const INEXACT_NUMBER = "Not exactly representable: send at most 15 significant digits";

interface SourceContext {
  source?: string;
}

/** `literal`'s decimal value as `digits e exponent` without insignificant zeros ("0" for zero), to compare two spellings. */
function decimalValue(literal: string): string {
  let text = literal;
  let sign = "";
  if (text[0] === "-") {
    sign = "-";
    text = text.slice(1);
  }
  let exponent = 0;
  const e = text.search(/[eE]/);
  if (e !== -1) {
    exponent = Number(text.slice(e + 1));
    text = text.slice(0, e);
  }
  const dot = text.indexOf(".");
  if (dot !== -1) {
    exponent -= text.length - dot - 1;
    text = text.slice(0, dot) + text.slice(dot + 1);
  }
  const digits = text.replace(/^0+/, "");
  if (digits === "") return "0"; // -0 is 0
  const significant = digits.replace(/0+$/, "");
  return `${sign}${significant}e${exponent + digits.length - significant.length}`;
}

const isExact = (value: number, source: string) => {
  const shortest = String(value);
  return source === shortest || decimalValue(source) === decimalValue(shortest);
};

const MAYBE_INEXACT = /\d[\d.]{15}|(?<![\w.])\d+(?:\.\d+)?[eE][-+]?\d/;

/**
 * The path (under `root`) of the first number JSON.parse would round in `text`, or null when none (or
 * when `text` is not JSON: the parser that reads the body reports that). Infinite results (`1e400`) are
 * left to the storable-input check, which names them out of range.
 */
export function roundedNumberIn(text: string, root: string): string | null {
  if (!MAYBE_INEXACT.test(text)) return null;
  let rounded: [object, string] | undefined;
  let value: unknown;
  try {
    value = JSON.parse(text, function (this: object, key: string, v: unknown, context?: SourceContext) {
      if (typeof v === "number" && rounded === undefined && Number.isFinite(v) && context?.source !== undefined && !isExact(v, context.source))
        rounded = [this, key];
      return v;
    } as never);
  } catch {
    return null;
  }
  return rounded ? pathOf(value, rounded[0], rounded[1], root) : null;
}

/** Where `holder[key]` sits in `value` (only walked when a number was rounded). */
function pathOf(value: unknown, holder: object, key: string, root: string): string {
  const pending: [unknown, string][] = [[value, root]];
  while (pending.length > 0) {
    const [v, path] = pending.pop()!;
    if (v === holder) return childPath(path, v, key);
    if (v !== null && typeof v === "object") for (const [k, child] of Object.entries(v)) pending.push([child, childPath(path, v, k)]);
  }
  return root; // the document itself is the number
}
