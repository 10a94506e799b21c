/**
 * src says why, not which ticket: a comment naming one of our issues ("issue 20", "(issue 21)", "issue #19",
 * "(#12)") tells a reader nothing the code does not and goes stale once the issue is closed. Write the reason
 * instead. A reference to an upstream project's issue, written `owner/repo#N` (porsager/postgres#1208), is a
 * pointer at a bug outside this repository and is kept.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { filesUnder, ROOT } from "./markdown";

/** "issue 20", "issues 19 and 20", "issue #21", "PR 7", "pull request #3", or a bare "(#12)". */
const ISSUE_REFERENCE = /\b(?:issues?|PRs?|pull requests?) #?\d+\b|\(#\d+\)/gi;
/** `owner/repo#N`: an upstream project's issue. */
const UPSTREAM = /[\w.-]+\/[\w.-]+#\d+/g;

export function issueReferences(text: string): string[] {
  return text.split("\n").flatMap((line, i) => [...line.replace(UPSTREAM, "").matchAll(ISSUE_REFERENCE)].map(([m]) => `${i + 1}: ${m}`));
}

test("the pattern finds our issue numbers and leaves upstream references and ordinary words alone", () => {
  expect(issueReferences("// Subscriptions (issue 21): x\n// Invoices (issue #20, inv-api)\n// see (#12)")).toEqual([
    "1: issue 21",
    "2: issue #20",
    "3: (#12)",
  ]);
  expect(issueReferences("// postgres.js (porsager/postgres#1208): x")).toEqual([]);
  expect(issueReferences('// the issue queues the email; HostError: Error(Contract, #10); trigger: "issue"')).toEqual([]);
});

test("no file of src names an issue of ours", () => {
  const found = filesUnder("src", ".ts").flatMap((file) => issueReferences(readFileSync(join(ROOT, file), "utf8")).map((hit) => `${file}:${hit}`));
  expect(found).toEqual([]); // say why the code is so instead
});
