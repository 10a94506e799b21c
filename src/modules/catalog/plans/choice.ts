/**
 * Which plans a company may be put on, in one place (PATCH /companies/{id}, the CLI's `company plan`,
 * ADDON payment links): a plan slot takes a plan of kind `plan`, an add-on slot one of kind `add_on`, and an
 * archived plan takes no one new; a company already holding it keeps it (archiving never takes anything
 * away, BILLING.md "Catalog").
 */
import type { Db } from "../../../db/queries";
import type { Tenant } from "../../../lib/tenant";
import type { PlanKind } from "./schemas";
import { plansByIds } from "./repo";

export interface PlanChoice {
  /** the field the ids came from, for the 400's details */
  field: string;
  ids: readonly string[];
  kind: PlanKind;
  /** what the company holds in that slot today: still allowed when archived */
  held?: readonly string[];
}

export interface PlanChoiceProblems {
  /** ids that are no plan of the tenant (a 404 where one plan was named, a 400 field error in a list) */
  unknown: string[];
  /** the 400's details, one entry per field with a problem, covering unknown ids too; empty when all can fill their slots */
  details: Record<string, string>;
}

/** Every id that cannot fill its slot: unknown, of the other kind, or archived and not already held. */
export async function planChoiceProblems(db: Db, tenant: Tenant, choices: readonly PlanChoice[]): Promise<PlanChoiceProblems> {
  const ids = [...new Set(choices.flatMap((c) => c.ids))];
  const found: PlanChoiceProblems = { unknown: [], details: {} };
  if (ids.length === 0) return found;
  const plans = new Map((await plansByIds(db, tenant, ids)).map((p) => [p.id, p]));
  for (const choice of choices) {
    const unknown = choice.ids.filter((id) => !plans.has(id));
    const wrongKind = choice.ids.filter((id) => plans.has(id) && plans.get(id)!.kind !== choice.kind);
    const archived = choice.ids.filter((id) => plans.get(id)?.kind === choice.kind && plans.get(id)!.archived_at && !choice.held?.includes(id));
    const problems = [
      unknown.length ? `No plan ${unknown.join(", ")}` : "",
      wrongKind.length
        ? `Not ${choice.kind === "plan" ? "a plan (an add-on goes in activeAddOnIds)" : "an add-on (a plan of kind add_on)"}: ${wrongKind.join(", ")}`
        : "",
      archived.length ? `Archived (it keeps the companies it has and takes no new one): ${archived.join(", ")}` : "",
    ].filter(Boolean);
    found.unknown.push(...unknown);
    if (problems.length) found.details[choice.field] = problems.join("; ");
  }
  return found;
}
