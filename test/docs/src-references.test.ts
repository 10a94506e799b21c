/**
 * Source comments point at the documentation in one form: `docs/<file>.md#<anchor>` (a path from the repository
 * root, the anchor GitHub gives the heading), e.g. `docs/invoices.md#refunds`. Each must resolve. Pointers at
 * README sections (`README "Refunds"`, `README, "Database"`, `README.md ("Errors")`, a bare "see README") are
 * refused: README is the front page, the topics live in docs/. `bench/README.md` is another file and is fine.
 *
 * KNOWN lists the README pointers src has today, per file, until /work/tools/readme-refs.tsv (the mapping of each
 * to its docs/ page) is applied to src: then each count drops to 0 and its entry must go (a stale entry fails too).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { brokenLink, filesUnder, ROOT } from "./markdown";

const KNOWN: Record<string, number> = {
  "src/auth/access.ts": 1,
  "src/chains/registry.ts": 1,
  "src/config.ts": 4,
  "src/db/embedded.ts": 1,
  "src/http/envelope.ts": 1,
  "src/http/idempotency.ts": 1,
  "src/http/unknown-fields.ts": 1,
  "src/index.ts": 2,
  "src/lib/errors.ts": 1,
  "src/lib/money/index.ts": 1,
  "src/lib/tenant.ts": 1,
  "src/modules/audit/index.ts": 1, // inside an OpenAPI description: changing it changes openapi.json
  "src/modules/dashboard/index.ts": 1,
  "src/modules/idempotency/rules.ts": 1,
  "src/modules/invoices/deliveries/queue.ts": 1,
  "src/modules/invoices/docs.ts": 1,
  "src/modules/invoices/documents/camt054.ts": 1,
  "src/modules/invoices/documents/iso-common.ts": 1,
  "src/modules/invoices/documents/iso-currency.ts": 1,
  "src/modules/invoices/documents/pain013.ts": 1,
  "src/modules/invoices/read.ts": 1,
  "src/modules/invoices/refund-routes.ts": 1,
  "src/modules/invoices/routes.ts": 1,
  "src/modules/subscriptions/dashboard-docs.ts": 1,
  "src/modules/subscriptions/routes.ts": 1,
  "src/modules/tokens/model.ts": 1,
  "src/modules/webhooks/event-types.ts": 1,
  "src/modules/webhooks/secrets.ts": 1,
};

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
