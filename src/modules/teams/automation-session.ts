/**
 * `session create` and the tests' fixtures: a dashboard session for an email with given roles, without a
 * password. The email's operator is found or created (one created here has no password, so no password
 * opens it: it is entered through sessions like this one or a sign-in link), and its membership of the
 * team is created or given exactly these roles. It is a real member session: roles are read from the
 * membership, removal revokes it, and CSRF applies to it when it is sent as the cookie.
 */
import type { Sql } from "../../db/client";
import type { Environment } from "../../lib/tenant";
import { apiError } from "../../lib/errors";
import { recordAudit, type Actor } from "../audit/repo";
import { activeMembers, changeRoles, insertMember } from "./members";
import { insertOperator } from "./operators";
import { findOperatorByEmail } from "./repo";
import { checkRoles } from "./roles";
import { insertSession } from "./sessions";
import { sessionCookie } from "../../auth/session-cookie";
import { requireTeam } from "./team";

export interface NewSession {
  teamId: string;
  environment: Environment;
  userEmail: string;
  roles: string[];
  ttlHours?: number;
}

export async function createDashboardSession(
  sql: Sql,
  input: NewSession,
  now: number,
  actor: Actor = { kind: "operator", id: "cli", requestId: null },
) {
  const roles = checkRoles(input.roles);
  const ttlHours = input.ttlHours ?? 12;
  if (!(ttlHours > 0 && ttlHours <= 24 * 30)) throw apiError("validation_failed", "Invalid ttl", { ttlHours: "1 to 720" });
  await requireTeam(sql, input.teamId);
  const made = await sql.begin(async (tx) => {
    const operator =
      (await findOperatorByEmail(tx, input.userEmail)) ??
      (await insertOperator(tx, { email: input.userEmail, name: input.userEmail.split("@")[0]!, passwordHash: null }));
    const existing = (await activeMembers(tx, input.teamId)).find((m) => m.operator_id === operator.id);
    let memberId: string;
    if (existing) {
      memberId = existing.id;
      // Through the one guarded path: these roles may not take `owner` from the team's last owner.
      if (!Bun.deepEquals(existing.roles, roles)) await changeRoles(tx, { teamId: input.teamId, by: { actor, roles: "cli" } }, memberId, roles);
    } else {
      memberId = await insertMember(tx, input.teamId, operator.id, roles);
    }
    const owner = { teamId: input.teamId, environment: input.environment, operatorId: operator.id, memberId, email: operator.email };
    const session = await insertSession(tx, owner, now, ttlHours * 3_600_000);
    await recordAudit(tx, {
      teamId: input.teamId,
      environment: input.environment,
      actor,
      action: "dashboard_session.create",
      resourceType: "dashboard_session",
      resourceId: session.id,
      details: { operatorId: operator.id, memberId, roles },
    });
    return { session, operatorId: operator.id, memberId };
  });
  const raw = made.session.token;
  return {
    id: made.session.id,
    environment: input.environment,
    userEmail: input.userEmail,
    operatorId: made.operatorId,
    memberId: made.memberId,
    roles,
    expiresAt: made.session.expiresAt.toISOString(),
    session: raw,
    /** the X-CSRF-Token header a cookie-authenticated write must carry */
    csrfToken: made.session.csrfToken,
    cookie: sessionCookie(raw, (made.session.expiresAt.getTime() - now) / 1000, true),
  };
}
