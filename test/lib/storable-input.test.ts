/** The one check of decoded input (src/lib/storable-input.ts), on the query and path values Elysia hands it too. */
import { expect, test } from "bun:test";
import { MAX_NESTING, nestedDeeperThan, unstorableInput } from "../../src/lib/storable-input";

test("a lone surrogate in a query or path value is named with its field; a surrogate pair is fine", () => {
  const lone = "Must not contain a lone UTF-16 surrogate (\\ud800-\\udfff without its pair)";
  expect(unstorableInput({ search: "a\ud800" }, "query")).toEqual({ "query.search": lone });
  expect(unstorableInput({ id: "\udc00b" }, "path")).toEqual({ "path.id": lone });
  expect(unstorableInput({ ["k\ud800"]: "v" }, "query")).toEqual({ "query.k\ud800": lone });
  expect(unstorableInput({ search: "\ud83d\ude00", id: "plain" }, "query")).toBeNull();
});

test("nestedDeeperThan counts the raw text's objects and arrays as unstorableInput counts the decoded ones; brackets in strings are text", () => {
  const nested = (depth: number) => JSON.stringify(Array.from({ length: depth - 1 }).reduce((inner) => ({ d: inner }), { leaf: [] as unknown[] }));
  for (const depth of [MAX_NESTING, MAX_NESTING + 1, MAX_NESTING + 2]) {
    const text = nested(depth); // `depth` levels of braces, then the empty array one deeper
    expect(nestedDeeperThan(text, MAX_NESTING)).toBe(unstorableInput(JSON.parse(text), "body") !== null);
  }
  expect(nestedDeeperThan(nested(MAX_NESTING - 1), MAX_NESTING)).toBe(false);
  expect(nestedDeeperThan(nested(MAX_NESTING), MAX_NESTING)).toBe(true);
  expect(nestedDeeperThan(JSON.stringify({ s: "[{".repeat(100), t: '\\"[[[', u: '"{{{' }), 2)).toBe(false);
  const escaped = `{"a":"\\\\","b":${"[".repeat(3)}${"]".repeat(3)}}`; // an escaped backslash ends the string before the arrays
  expect(JSON.parse(escaped)).toEqual({ a: "\\", b: [[[]]] });
  expect(nestedDeeperThan(escaped, 3)).toBe(true);
});
