/**
 * Dashboard roles on a membership, and who may change them. `owner` and `admin` hold every role; only an
 * owner may grant or remove `owner`; anyone else with members:write may grant or remove only roles they
 * hold themselves (so members:write alone cannot make its holder an admin). The CLI acts as an owner.
 */
import { DASHBOARD_ROLES } from "../../auth/kinds";
import { apiError } from "../../lib/errors";
import type { Actor } from "../audit/repo";

export const holdsAll = (roles: readonly string[]) => roles.includes("owner") || roles.includes("admin");

/** The roles given, each once, in DASHBOARD_ROLES order; 400 when empty or one is unknown. */
export function checkRoles(roles: readonly string[]): string[] {
  const unknown = roles.filter((r) => !(DASHBOARD_ROLES as readonly string[]).includes(r));
  if (unknown.length || roles.length === 0) {
    throw apiError("validation_failed", "Invalid roles", { roles: `At least one of: ${DASHBOARD_ROLES.join(", ")}` });
  }
  return DASHBOARD_ROLES.filter((r) => roles.includes(r));
}

/** Who changes a membership: a member (their roles now), or the operator CLI. */
export interface MemberActor {
  actor: Actor;
  roles: readonly string[] | "cli";
}

/** A change to a team's memberships: which team, made by whom. */
export interface MemberChange {
  teamId: string;
  by: MemberActor;
}

/** The operator CLI as the actor of what it changes (audited as `operator` `cli`). */
export const OPERATOR: Actor = { kind: "operator", id: "cli", requestId: null };

/** Throws 403 unless `by` may turn a member's roles from `before` into `after`. */
export function assertMayChange(by: MemberActor, before: readonly string[], after: readonly string[]): void {
  if (by.roles === "cli") return;
  const ownerChanges = before.includes("owner") !== after.includes("owner");
  if (ownerChanges && !by.roles.includes("owner")) throw apiError("missing_permission", "Only an owner may grant or remove the owner role");
  if (holdsAll(by.roles)) return;
  const changed = [...before.filter((r) => !after.includes(r)), ...after.filter((r) => !before.includes(r))];
  const notHeld = changed.filter((r) => !by.roles.includes(r));
  if (notHeld.length) throw apiError("missing_permission", `You may only grant or remove roles you hold (not: ${notHeld.join(", ")})`);
}
