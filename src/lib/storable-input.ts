/**
 * What PostgreSQL cannot store, found in a decoded request before anything is written: text holding the
 * NUL character (neither `text` nor `jsonb` accepts it), text holding a lone UTF-16 surrogate (JSON's
 * `"\ud800"`: `jsonb` refuses it, and `text` would get U+FFFD, so two different ids would become one)
 * and objects nested beyond any sensible depth
 * (a deeply nested `traits` would exhaust the stack of whatever walks it next). Also numbers that would
 * not be stored as sent: JSON's 1e400 decodes to Infinity, which is written as null (in traits, where
 * null removes a key, it deleted one), and a whole number of magnitude 2^53 or more may have lost
 * digits in decoding already. All are the caller's input, so they are a 400 naming the field, not a
 * 500 halfway through a write or a changed value.
 */

import { childPath } from "./field-path";

export const MAX_NESTING = 32;

/** Why text cannot be stored as sent, or null when it can. */
function unstorableText(text: string): string | null {
  if (text.includes("\u0000")) return "Must not contain the NUL character (\\u0000)";
  if (!text.isWellFormed()) return "Must not contain a lone UTF-16 surrogate (\\ud800-\\udfff without its pair)";
  return null;
}

/**
 * Whether everything under `value` is storable, by the same rules as `firstUnstorable`, without building a
 * field path for every key: the answer for nearly every request, found in a fraction of the time. Recursive,
 * but never deeper than MAX_NESTING (deeper is already the answer false), so it cannot overflow the stack.
 */
function allStorable(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case "string":
      return !value.includes("\u0000") && value.isWellFormed();
    case "number":
      return Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value));
    case "object":
      if (value === null) return true;
      if (depth >= MAX_NESTING) return false;
      for (const key of Object.keys(value)) {
        if (key.includes("\u0000") || !key.isWellFormed()) return false;
        if (!allStorable((value as Record<string, unknown>)[key], depth + 1)) return false;
      }
      return true;
    default:
      return true;
  }
}

/** The first unstorable value under `root` as `{field path: what is wrong}`, or null when all is storable. */
export function unstorableInput(value: unknown, root: string): Record<string, string> | null {
  return allStorable(value, 0) ? null : firstUnstorable(value, root);
}

function firstUnstorable(value: unknown, root: string): Record<string, string> | null {
  // Iterative, so that the walk itself cannot overflow the stack on the input it exists to refuse.
  const pending: [unknown, string, number][] = [[value, root, 0]];
  while (pending.length > 0) {
    const [v, path, depth] = pending.pop()!;
    if (typeof v === "string") {
      const problem = unstorableText(v);
      if (problem) return { [path]: problem };
      continue;
    }
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return { [path]: "Number out of range" };
      // A decoded number cannot tell 1e20 from 100000000000000000001: every whole number this large is refused.
      if (Number.isInteger(v) && !Number.isSafeInteger(v))
        return { [path]: "Whole numbers of magnitude 2^53 or more may not be stored exactly: send them as strings" };
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    if (depth >= MAX_NESTING) return { [path]: `Nested more than ${MAX_NESTING} levels deep` };
    for (const [key, child] of Object.entries(v)) {
      const at = childPath(path, v, key);
      const problem = unstorableText(key);
      if (problem) return { [at]: problem };
      pending.push([child, at, depth + 1]);
    }
  }
  return null;
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text nests objects and arrays more than `max` levels (the document's own braces count as
 * one), found by one pass over the text, before it is decoded: the same rule as unstorableInput's, applied
 * to the raw body, because deep input costs before that check can run (a schema that refuses a value
 * 10,000 levels deep takes seconds to describe the error, and 100,000 levels overflow the stack there).
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}
