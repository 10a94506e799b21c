/**
 * One role per file name (README.md, "Layout"): SQL runs only in repo.ts files, no exported function takes more
 * than four positional parameters, no query file takes more than twelve `$n`, and no file is named for a
 * role the house does not have (model.ts, views.ts) or carries a role as a suffix (plans-repo.ts).
 * Database row types live in rows.ts and TypeBox schemas (the wire) in schemas.ts, never the one in the other.
 */
import { expect, test } from "bun:test";
import { Glob } from "bun";
import ts from "typescript";
import { ROOT, readSources } from "./source";

const sources = await readSources();

/** The names of src/db/queries.ts that run a statement (or name one to run). */
const RUNS_SQL = new Set(["queries", "run", "runOne", "runCount", "runPlannedPerCall", "deleteInBatches"]);
/** A postgres.js tagged template (sql`...`, tx`...`) or an unsafe call, outside comments. */
const TAGGED_SQL = /(?<![\w.])(sql|tx|db|trx)`|\.unsafe\(/;
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

function runsSql(file: (typeof sources)[number]): boolean {
  const fromQueries = file.imports.some((i) => i.file === "src/db/queries.ts" && i.names.some((n) => RUNS_SQL.has(n)));
  return fromQueries || TAGGED_SQL.test(withoutComments(file.text));
}

test("SQL runs only in files named repo.ts (outside src/db)", () => {
  const found = sources.filter((f) => !f.path.startsWith("src/db/") && !f.path.endsWith("/repo.ts") && runsSql(f)).map((f) => f.path);
  expect(found).toEqual([]);
});

function longSignatures(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const exported = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  const positional = (params: ts.NodeArray<ts.ParameterDeclaration>) =>
    params.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === "this")).length;
  const found: string[] = [];
  for (const statement of file.statements) {
    if (ts.isFunctionDeclaration(statement) && exported(statement) && positional(statement.parameters) > 4)
      found.push(`${path}: ${statement.name?.text ?? "default"}`);
    if (ts.isVariableStatement(statement) && exported(statement))
      for (const d of statement.declarationList.declarations) {
        const init = d.initializer;
        if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) && positional(init.parameters) > 4)
          found.push(`${path}: ${d.name.getText(file)}`);
      }
  }
  return found;
}

test("no exported function takes more than four positional parameters (pass one context or options object)", () => {
  const found = sources.flatMap((f) => longSignatures(f.path, f.text));
  expect(found).toEqual([]);
});

test("no sql/queries file takes more than twelve positional parameters (take one named record, or split it)", async () => {
  const found: string[] = [];
  for await (const name of new Glob("*.sql").scan(`${ROOT}/sql/queries`)) {
    const text = (await Bun.file(`${ROOT}/sql/queries/${name}`).text()).replace(/--.*$/gm, "");
    if (new Set(text.match(/\$\d+/g) ?? []).size > 12) found.push(name);
  }
  found.sort();
  expect(found).toEqual([]);
});

test("role names: no model.ts or views.ts, and no role as a suffix (-repo, -routes, -schemas, -model, -docs, -rows, -deps) in src/modules", () => {
  const found = sources
    .map((f) => f.path)
    .filter((p) => {
      const name = p.split("/").pop()!;
      return (
        name === "model.ts" || name === "views.ts" || (p.startsWith("src/modules/") && /-(repo|routes|schemas|model|docs|rows|deps)\.ts$/.test(name))
      );
    });
  expect(found).toEqual([]);
});

/** A database row type declared by name (`interface CouponRow`, `type PlanFullRow =`), not one imported. */
const ROW_TYPE = /^[ \t]*(?:export\s+)?(?:interface\s+(\w*Row)\b|type\s+(\w*Row)\s*(?:<[^>]*>)?\s*=)/gm;
/** A TypeBox schema built (`t.Object(`, `Type.String(`, `T.Union(`): the wire, not a table. */
const TYPEBOX_BUILT = /(?<![\w$.])(?:t|T|Type)\.[A-Z]\w*\(/g;

test("rows.ts holds the database row types and schemas.ts the wire: no *Row type in a schemas.ts or repo.ts, no TypeBox built in a rows.ts", () => {
  const found: string[] = [];
  for (const file of sources) {
    const name = file.path.split("/").pop();
    const text = withoutComments(file.text);
    if (name === "schemas.ts" || name === "repo.ts")
      for (const m of text.matchAll(ROW_TYPE)) found.push(`${file.path}: row type ${m[1] ?? m[2]} (move it to rows.ts)`);
    if (name === "rows.ts") for (const m of text.matchAll(TYPEBOX_BUILT)) found.push(`${file.path}: TypeBox ${m[0]} (move it to schemas.ts)`);
  }
  expect(found).toEqual([]);
});
