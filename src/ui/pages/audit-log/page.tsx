/** The audit log: its entries newest first (filters, a page at a time), and whether its hash chain holds. */
import { Field, ListTable, Shell, when } from "../../layout";
import type { PageSession } from "../../session";

export interface AuditEntryView {
  id: string;
  actorKind: string;
  actorId: string;
  action: string;
  resourceType: string;
  resourceId: string;
  createdAt: string;
  chainSeq: number;
}

export type ChainVerdictView =
  | { ok: true; entries: number; head: { chainSeq: number; hash: string } | null }
  | { ok: false; entries: number; brokenAt: { id: string | null; chainSeq: number }; reason: string; detail: string };

/** The filters GET /audit-log takes, as the page's form and its links carry them. */
export const FILTERS = ["action", "resourceType", "resourceId", "actorId"] as const;
export type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

export interface AuditLogProps {
  session: PageSession;
  entries: AuditEntryView[];
  nextCursor: string | null;
  filters: Filters;
  /** null: the check could not be made (its refusal is printed instead) */
  verdict: ChainVerdictView | null;
  verdictError?: string;
  /** who the operator ids are, from the members list when the session may read it */
  people: Record<string, string>;
}

export const PATH = "/dashboard/audit-log";

/** The query of a page of this log with these filters (and a cursor). */
export const queryOf = (filters: Filters, cursor?: string) => {
  const params = new URLSearchParams();
  for (const name of FILTERS) if (filters[name]) params.set(name, filters[name]!);
  if (cursor) params.set("cursor", cursor);
  const text = params.toString();
  return text ? `?${text}` : "";
};

function ChainStatus({ verdict, error }: { verdict: ChainVerdictView | null; error?: string }) {
  if (!verdict) {
    return (
      <p class="form-error" role="alert" safe>
        {`The chain could not be verified: ${error ?? "no answer"}`}
      </p>
    );
  }
  if (verdict.ok) {
    const text = verdict.head ? `Chain verified up to entry ${verdict.head.chainSeq}.` : "Chain verified: the log is empty.";
    const hash = verdict.head ? `Head hash ${verdict.head.hash}` : "";
    return (
      <div class="chain chain-ok" role="status">
        <p>
          <strong safe>{text}</strong> Every entry hashes as written and links to the one before it.
        </p>
        {hash ? (
          <p class="hint">
            <code safe>{hash}</code> (record it elsewhere to detect a rewrite later: <code>audit verify --anchor</code>)
          </p>
        ) : (
          ""
        )}
      </div>
    );
  }
  const where = `Chain broken at entry ${verdict.brokenAt.chainSeq}${verdict.brokenAt.id ? ` (${verdict.brokenAt.id})` : ""}: ${verdict.reason}.`;
  const before = `Entries 1 to ${verdict.entries} verify; from entry ${verdict.brokenAt.chainSeq} on, the log cannot be trusted.`;
  return (
    <div class="chain chain-broken" role="alert">
      <p>
        <strong safe>{where}</strong>
      </p>
      <p safe>{verdict.detail}</p>
      <p safe>{before}</p>
    </div>
  );
}

export function AuditLogPage({ session, entries, nextCursor, filters, verdict, verdictError, people }: AuditLogProps) {
  const filtered = FILTERS.some((name) => filters[name]);
  return (
    <Shell title="Audit log" session={session} path={PATH}>
      <section aria-labelledby="chain-title">
        <h2 id="chain-title" safe>{`Chain of ${session.environment}`}</h2>
        <ChainStatus verdict={verdict} error={verdictError} />
      </section>
      <section aria-labelledby="filter-title">
        <h2 id="filter-title">Filter</h2>
        <form method="get" action={PATH} class="filters">
          <Field name="action" label="Action" value={filters.action} hint="e.g. member.remove" />
          <Field name="resourceType" label="Resource type" value={filters.resourceType} hint="e.g. member" />
          <Field name="resourceId" label="Resource id" value={filters.resourceId} hint="e.g. mem_…" />
          <Field name="actorId" label="Actor id" value={filters.actorId} hint="op_…, key_…, cli" />
          <div class="actions">
            <button type="submit">Filter</button>
            {filtered ? <a href={PATH}>Clear</a> : ""}
          </div>
        </form>
      </section>
      <ListTable
        title={filtered ? "Matching entries, newest first" : "Entries, newest first"}
        empty="No entries."
        columns={["#", "When", "Actor", "Action", "Resource"]}
        rows={entries.map((e) => {
          const who = people[e.actorId] ? `${people[e.actorId]} (${e.actorId})` : e.actorId;
          const breaks = verdict !== null && !verdict.ok && verdict.brokenAt.chainSeq === e.chainSeq;
          return (
            <tr class={breaks ? "chain-break-row" : undefined}>
              <td>
                <span safe>{String(e.chainSeq)}</span>
                {breaks ? <strong class="field-error"> broken here</strong> : ""}
              </td>
              <td safe>{when(e.createdAt)}</td>
              <td>
                <span safe>{who}</span>{" "}
                <span class="hint" safe>
                  {e.actorKind}
                </span>
              </td>
              <td>
                <code safe>{e.action}</code>
              </td>
              <td>
                <span safe>{e.resourceType}</span> <code safe>{e.resourceId}</code>
              </td>
            </tr>
          );
        })}
      >
        {nextCursor ? (
          <p>
            <a href={`${PATH}${queryOf(filters, nextCursor)}`}>Next page</a>
          </p>
        ) : (
          ""
        )}
      </ListTable>
    </Shell>
  );
}
