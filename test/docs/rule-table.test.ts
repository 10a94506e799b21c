/**
 * README's "Where each rule lives" names files and what they hold; each name must still be true. In its cells
 * a backticked path (`src/...`, `sql/...`, `test/...`) must exist, and "`a`, `b` and `c` in `path`" says the
 * file holds each of them: a TypeScript file exports the symbol; an SQL file contains the text (table aliases
 * such as `g.` ignored, a trailing `()` meaning the function of that name).
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./markdown";

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const PATH = /^(?:src|sql|test|bench|docs|contracts)\/[\w./<>-]*$/;

/** The rows of the README table under `## Where each rule lives`, as their cells. */
function ruleRows(readme: string): string[][] {
  const section = readme.split(/^## Where each rule lives\s*$/m)[1]?.split(/^## /m)[0] ?? "";
  return section
    .split("\n")
    .filter((line) => line.startsWith("| ") && !/^\| (Rule|---)/.test(line))
    .map((line) =>
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

export function exportsOf(source: string): Set<string> {
  const names = new Set<string>();
  for (const m of source.matchAll(
    /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?|const|let|var|class|interface|type|enum|abstract\s+class)\s+([\w$]+)/gm,
  ))
    names.add(m[1]!);
  for (const m of source.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm))
    for (const part of m[1]!.split(",")) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.replace(/^type\s+/, "");
      if (name) names.add(name);
    }
  return names;
}

/** What a cell names that is not so: missing paths, symbols not exported, SQL text not found. */
export function problemsOf(cell: string): string[] {
  const problems: string[] = [];
  for (const [, token] of cell.matchAll(/`([^`]+)`/g)) if (PATH.test(token!) && !existsSync(join(ROOT, token!))) problems.push(`no file ${token}`);
  for (const m of cell.matchAll(/((?:`[^`]+`(?:, | and | or ))*`[^`]+`) in `([^`]+)`/g)) {
    const file = m[2]!;
    if (!PATH.test(file)) {
      problems.push(`"in \`${file}\`": name the file by its path from the repository root`);
      continue;
    }
    if (!existsSync(join(ROOT, file))) continue; // reported above
    const source = readFileSync(join(ROOT, file), "utf8");
    for (const [, name] of m[1]!.matchAll(/`([^`]+)`/g)) {
      if (file.endsWith(".sql")) {
        const plain = source.replace(/\b[a-z_]\w*\.(?=[a-z_])/gi, "").toLowerCase();
        const wanted = name!.replace(/\(\)$/, "(").toLowerCase();
        if (!plain.includes(wanted)) problems.push(`${file} does not contain ${name}`);
      } else if (!IDENTIFIER.test(name!)) problems.push(`\`${name}\` in ${file}: not a symbol name`);
      else if (!exportsOf(source).has(name!)) problems.push(`${file} does not export ${name}`);
    }
  }
  return problems;
}

const readme = readFileSync(join(ROOT, "README.md"), "utf8");

test("the check catches a missing file, a symbol not exported and a name not qualified by its path", () => {
  expect(problemsOf("`decide` in `src/modules/entitlements/compute.ts`")).toEqual([]);
  expect(problemsOf("`noSuchRule` in `src/modules/entitlements/compute.ts`")).toEqual([
    "src/modules/entitlements/compute.ts does not export noSuchRule",
  ]);
  expect(problemsOf("`x` in `src/nowhere.ts`")).toEqual(["no file src/nowhere.ts"]);
  expect(problemsOf("`decide` in `compute.ts`")).toEqual(['"in `compute.ts`": name the file by its path from the repository root']);
  expect(problemsOf("`meter_settle()` in `sql/functions/meter_settle.sql`")).toEqual([]);
});

test('README\'s "Where each rule lives" has its rows, each naming where its rule lives', () => {
  const rows = ruleRows(readme);
  expect(rows.length).toBeGreaterThanOrEqual(12);
  for (const row of rows) {
    expect(row).toHaveLength(3);
    expect(row[1]).toMatch(/` in `/);
  }
});

test('every file and symbol README\'s "Where each rule lives" names exists', () => {
  const problems = ruleRows(readme).flatMap(([rule, ...cells]) => cells.flatMap(problemsOf).map((p) => `${rule}: ${p}`));
  expect(problems).toEqual([]);
});
