/**
 * The plans of the invoice reads on the bench's data: each statement of sql/queries as the service runs it
 * (prepared), EXPLAIN ANALYZE'd under a custom plan (the parameters known) and a generic one (what
 * PostgreSQL may keep for a prepared statement after five executions), summarised as the nodes and
 * indexes used and the execution time. A sequential scan of invoices in any of them is what to fix.
 */
import type { Sql } from "../src/db/client";
import { queries } from "../src/db/queries";
import type { Tenant } from "../src/lib/tenant";

const Q = queries(["invoice_list_page", "invoice_list_page_by_status", "invoice_search_page", "invoice_find_by_id", "invoice_lines_list"]);

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
}

const describeNode = (n: PlanNode): string[] => [
  [n["Node Type"], n["Index Name"] ?? n["Relation Name"]].filter(Boolean).join(" "),
  ...(n.Plans ?? []).flatMap(describeNode),
];

/** A SQL literal of one of the bench's own constants (never of outside input). */
const literal = (v: unknown): string =>
  v === null ? "null" : Array.isArray(v) ? `array[${v.map(literal).join(", ")}]` : `'${String(v).replaceAll("'", "''")}'`;

export async function explainListPlans(sql: Sql, t: Tenant, count: number) {
  const page = [t.teamId, t.environment, null, 51];
  const pageTypes = ["text", "text", "int8", "int8"];
  const some = `in_bench${String(Math.floor(count / 2)).padStart(8, "0")}`;
  const search = [...pageTypes, "text", "text"];
  const cases: [string, string, string[], unknown[]][] = [
    ["newest", Q.invoice_list_page, pageTypes, page],
    ["status PAID", Q.invoice_list_page_by_status, [...pageTypes, "text"], [...page, "PAID"]],
    ["status VOID", Q.invoice_list_page_by_status, [...pageTypes, "text"], [...page, "VOID"]],
    ["q number", Q.invoice_search_page, search, [...page, "%inv-012345%", null]],
    ["q email narrow", Q.invoice_search_page, search, [...page, "%buyer1234@%", null]],
    ["q email broad", Q.invoice_search_page, search, [...page, "%@globex%", null]],
    ["q broad + status VOID", Q.invoice_search_page, search, [...page, "%@globex%", "VOID"]],
    ["q two characters", Q.invoice_search_page, search, [...page, "%zz%", null]],
    ["by id", Q.invoice_find_by_id, ["text", "text", "text"], [t.teamId, t.environment, some]],
    ["lines of a page", Q.invoice_lines_list, ["text", "text", "text[]"], [t.teamId, t.environment, [some]]],
  ];
  const plans = [];
  for (const [name, text, types, params] of cases) {
    for (const mode of ["force_custom_plan", "force_generic_plan"]) {
      const result = await sql.begin(async (tx) => {
        await tx.unsafe(`set local plan_cache_mode = ${mode}`);
        await tx.unsafe(`prepare bench_plan(${types.join(", ")}) as ${text}`).simple();
        // EXECUTE's arguments cannot be protocol parameters (a utility statement): the bench's own constants, quoted.
        const args = params.map((v, i) => `${literal(v)}::${types[i]}`).join(", ");
        const [row] = await tx.unsafe(`explain (analyze, buffers, format json) execute bench_plan(${args})`).simple();
        await tx.unsafe("deallocate bench_plan");
        return (row as unknown as { "QUERY PLAN": [{ Plan: PlanNode; "Execution Time": number }] })["QUERY PLAN"][0];
      });
      plans.push({
        name,
        mode: mode.replace("force_", "").replace("_plan", ""),
        executionMs: result["Execution Time"],
        nodes: describeNode(result.Plan),
      });
    }
  }
  return plans;
}
