/**
 * Invitations: a member with members:write (or the CLI) invites an email with roles; the one-time token
 * (`dinv_…`, valid 7 days, only its SHA-256 stored) is returned once to the inviter, who passes it on
 * (this service sends no email). Accepting spends it: a new operator is created with the name and
 * password given, or an existing one (same email, any case) proves their password; either way the
 * operator joins the team with the invitation's roles and is signed in.
 */
import type { Db } from "../../db/queries";
import type { Sql } from "../../db/client";
import { newId, randomToken } from "../../lib/ids";
import { sha256Hex } from "../../lib/hash";
import { apiError } from "../../lib/errors";
import { recordTeamAudit, type Actor } from "../audit/repo";
import { activeMembers, insertMember } from "./members";
import { checkEmail, checkPassword, hashPassword, insertOperator, passwordMatches } from "./operators";
import { acceptInvitationRow, findOperatorByEmail, insertInvitation, listPendingInvitations } from "./repo";
import { assertMayChange, checkRoles, type MemberChange } from "./roles";
import type { InvitationRow } from "./rows";
import { startSession, type SignInSettings, type SignedIn } from "./sign-in";
import { assertNotThrottled, recordFailure, throttleScopes } from "./throttle";
import { requireTeam } from "./team";

export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;
const INVITATION_PREFIX = "dinv_";

const presentInvitation = (r: InvitationRow) => ({
  id: r.id,
  email: r.email,
  roles: r.roles,
  invitedBy: r.invited_by,
  expiresAt: r.expires_at.toISOString(),
  createdAt: r.created_at.toISOString(),
});

/** `change.now`: the instant the invitation's 7 days run from. */
export async function inviteMember(sql: Sql, { teamId, by, now }: MemberChange & { now: number }, input: { email: string; roles: string[] }) {
  const email = checkEmail(input.email);
  const roles = checkRoles(input.roles);
  assertMayChange(by, [], roles);
  await requireTeam(sql, teamId);
  if ((await activeMembers(sql, teamId)).some((m) => m.email.toLowerCase() === email.toLowerCase()))
    throw apiError("conflict", `${email} is already a member of this team`);
  const token = `${INVITATION_PREFIX}${randomToken(43)}`;
  const row = await sql.begin(async (tx) => {
    const created = await insertInvitation(tx, {
      id: newId("inv"),
      teamId,
      email,
      roles,
      tokenHash: sha256Hex(token),
      invitedBy: by.actor.id,
      expiresAt: new Date(now + INVITATION_TTL_MS),
    });
    await recordTeamAudit(tx, {
      teamId,
      actor: by.actor,
      action: "invitation.create",
      resourceType: "invitation",
      resourceId: created!.id,
      details: { email, roles },
    });
    return created!;
  });
  return { invitation: presentInvitation(row), token };
}

export async function listInvitations(db: Db, teamId: string, now: number) {
  return (await listPendingInvitations(db, teamId, new Date(now))).map(presentInvitation);
}

export interface Acceptance {
  token: string;
  name: string;
  password: string;
}

/** Thrown inside the transaction so it rolls back (the invitation stays unspent); recorded after. */
class WrongPassword extends Error {
  constructor(readonly scopes: ReturnType<typeof throttleScopes>) {
    super("wrong password");
  }
}

export async function acceptInvitation(sql: Sql, input: Acceptance, clientAddress: string, s: SignInSettings): Promise<SignedIn> {
  const accept = sql.begin(async (tx) => {
    const inv = await acceptInvitationRow(tx, sha256Hex(input.token), new Date(s.now));
    if (!inv) throw apiError("invitation_invalid", "This invitation is unknown, already accepted or expired");
    let operator = await findOperatorByEmail(tx, inv.email);
    if (operator) {
      // An existing account proves its password (a wrong one leaves the invitation unspent), under the sign-in throttle.
      const scopes = throttleScopes(inv.email, clientAddress);
      await assertNotThrottled(tx, scopes, s.now); // on this transaction: a second connection per accept could drain the pool
      if (!(await passwordMatches(operator.password_hash, input.password, s.passwordHashMemoryKib))) throw new WrongPassword(scopes);
    } else {
      checkPassword(input.password);
      operator = {
        ...(await insertOperator(tx, {
          email: inv.email,
          name: input.name,
          passwordHash: await hashPassword(input.password, s.passwordHashMemoryKib),
        })),
        password_hash: "",
      };
    }
    const memberId = await insertMember(tx, inv.team_id, operator.id, inv.roles);
    const actor: Actor = { kind: "dashboard", id: operator.id, requestId: s.requestId };
    await recordTeamAudit(tx, {
      teamId: inv.team_id,
      actor,
      action: "invitation.accept",
      resourceType: "member",
      resourceId: memberId,
      details: { invitationId: inv.id, email: inv.email, roles: inv.roles },
    });
    return startSession(tx, { operator, member: { id: memberId, teamId: inv.team_id }, method: "invitation" }, s);
  });
  try {
    return await accept;
  } catch (error) {
    if (!(error instanceof WrongPassword)) throw error;
    await recordFailure(sql, error.scopes, s.now);
    throw apiError("sign_in_failed", "Email or password is incorrect");
  }
}
