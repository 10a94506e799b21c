/**
 * Source comments point at the documentation in one form: `docs/<file>.md#<anchor>` (a path from the repository
 * root, the anchor GitHub gives the heading), e.g. `docs/invoices.md#refunds`. Each must resolve. Pointers at
 * README sections (`README "Refunds"`, `README, "Database"`, `README.md ("Errors")`, a bare "see README") are
 * refused: README is the front page, the topics live in docs/. `bench/README.md` is another file and is fine.
 *
 * KNOWN would list README pointers tolerated per file; it is empty, and a stale entry fails too.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { brokenLink, filesUnder, ROOT } from "./markdown";

const KNOWN: Record<string, number> = {};

/** `README` or `README.md` not preceded by a path (bench/README.md names another file). */
const README_POINTER = /(?<![\w./-])README(?:\.md)?\b/g;
/** A docs reference in the one form src uses. */
const DOCS_REFERENCE = /(?<![\w./-])docs\/[\w./-]+\.md(?:#[\w-]+)?/g;

const sources = filesUnder("src", ".ts").map((file) => ({ file, text: readFileSync(join(ROOT, file), "utf8") }));

function linesMatching(text: string, pattern: RegExp): { line: number; match: string }[] {
  return text.split("\n").flatMap((content, i) => [...content.matchAll(pattern)].map(([match]) => ({ line: i + 1, match })));
}

test("the patterns tell a README pointer and a docs reference from other files' names", () => {
  const pointers = (s: string) => linesMatching(s, README_POINTER).map((m) => m.match);
  expect(pointers('see README "Refunds"; README, "Database"; README.md ("Errors")')).toEqual(["README", "README", "README.md"]);
  expect(pointers('bench/README.md "Invoices"; test/fixtures/iso20022/README')).toEqual([]);
  expect(linesMatching("(docs/invoices.md#refunds); src/x/docs.ts", DOCS_REFERENCE).map((m) => m.match)).toEqual(["docs/invoices.md#refunds"]);
});

test("every docs/ reference in src resolves to a file and a heading", async () => {
  const broken: string[] = [];
  for (const { file, text } of sources)
    for (const { line, match } of linesMatching(text, DOCS_REFERENCE)) {
      const problem = await brokenLink("README.md", match);
      if (problem) broken.push(`${file}:${line}: ${problem}`);
    }
  expect(broken).toEqual([]);
});

test("src points at no README section, beyond the known ones readme-refs.tsv replaces", () => {
  const found = new Map<string, string[]>();
  for (const { file, text } of sources)
    for (const { line, match } of linesMatching(text, README_POINTER)) found.set(file, [...(found.get(file) ?? []), `${file}:${line}: ${match}`]);
  const unexpected = [...found].flatMap(([file, hits]) => hits.slice(KNOWN[file] ?? 0));
  expect(unexpected).toEqual([]); // write `docs/<file>.md#<anchor>` instead
  const stale = Object.entries(KNOWN)
    .filter(([file, count]) => (found.get(file)?.length ?? 0) < count)
    .map(([file, count]) => `${file}: KNOWN says ${count}, src has ${found.get(file)?.length ?? 0}: lower or remove the entry`);
  expect(stale).toEqual([]);
});
