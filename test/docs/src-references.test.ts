/**
 * Source comments point at the documentation in one form: `docs/<file>.md#<anchor>` (a path from the repository
 * root, the anchor GitHub gives the heading), e.g. `docs/invoices.md#refunds`. Each must resolve. Pointers at
 * README sections (`README "Refunds"`, `README, "Database"`, `README.md ("Errors")`, a bare "see README") are
 * refused: README is the front page, the topics live in docs/. `bench/README.md` is another file and is fine.
 *
 * KNOWN would list README pointers tolerated per file; it is empty, and a stale entry fails too.
 *
 * A file named by its path from the repository root (`src/modules/invoices/compute.ts`, `test/api/idempotency.test.ts`)
 * in src or in the pages (README.md, docs/, bench/README.md) must exist: a comment naming a file that moved
 * sends the reader nowhere. A path with a placeholder (`src/modules/<domain>/index.ts`) names no one file.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
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

/** `src/...ts` or `test/...ts`, from the repository root (not preceded by another path segment). */
const FILE_PATH = /(?<![\w./<>-])(?:src|test)\/[\w./-]*\.ts\b/g;

const pages = ["README.md", "bench/README.md", ...filesUnder("docs", ".md")].map((file) => ({ file, text: readFileSync(join(ROOT, file), "utf8") }));

function missingFiles(named: { file: string; text: string }[]): string[] {
  return named.flatMap(({ file, text }) =>
    linesMatching(text, FILE_PATH)
      .filter(({ match }) => !existsSync(join(ROOT, match)))
      .map(({ line, match }) => `${file}:${line}: ${match}`),
  );
}

test("the path pattern takes paths from the root, whole, and leaves placeholders and relative names alone", () => {
  const paths = (s: string) => linesMatching(s, FILE_PATH).map((m) => m.match);
  expect(paths("(src/chains/claims.ts); test/api/x.test.ts, see src/modules/<domain>/index.ts or ../src/a.ts")).toEqual([
    "src/chains/claims.ts",
    "test/api/x.test.ts",
  ]);
  expect(missingFiles([{ file: "x.md", text: "see src/chains/claims.ts and src/lib/period.ts" }])).toEqual(["x.md:1: src/chains/claims.ts"]);
});

test("every src/ or test/ file that src, README, bench/README.md and docs/ name exists", () => {
  expect(missingFiles([...sources, ...pages])).toEqual([]); // the file moved: name it where it is now
});
