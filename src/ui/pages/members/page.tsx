/** Members and invitations: the team's members with their roles, pending invitations, invite, change roles, remove. */
import { Field, FormError, ListTable, OnceKey, Shell, ShownOnce, when } from "../../layout";
import type { PageSession } from "../../session";
import { RoleBoxes, type FormState } from "./forms";

export interface MemberView {
  id: string;
  operatorId: string;
  email: string;
  name: string;
  roles: string[];
  createdAt: string;
}

export interface InvitationView {
  id: string;
  email: string;
  roles: string[];
  invitedBy: string;
  expiresAt: string;
  createdAt: string;
}

export interface MembersProps {
  session: PageSession;
  members: MemberView[];
  invitations: InvitationView[];
  /** the invitation just made, with its one-time link: printed in this one answer only */
  invited?: { invitation: InvitationView; link: string };
  /** a confirmation after a redirect (`?done=`) */
  done?: string;
  form?: FormState;
}

export const PATH = "/dashboard/members";
/** The confirmations a redirect may name, as the page words them. */
export const DONE: Record<string, string> = {
  roles: "Roles changed. They apply on the member's next request.",
  removed: "Member removed. Their sessions have ended.",
};

const memberPath = (id: string, action: string) => `${PATH}/${encodeURIComponent(id)}/${action}`;

export function MembersPage({ session, members, invitations, invited, done, form }: MembersProps) {
  const canInvite = session.may("POST", PATH);
  const canChange = session.may("PATCH", `${PATH}/{id}`);
  const canRemove = session.may("DELETE", `${PATH}/{id}`);
  const doneText = done ? (DONE[done] ?? "") : "";
  return (
    <Shell title="Members" session={session} path={PATH}>
      {doneText ? (
        <p class="notice" role="status" safe>
          {doneText}
        </p>
      ) : (
        ""
      )}
      {invited ? (
        <section class="notice" aria-labelledby="invited-title">
          <h2 id="invited-title">
            Invitation for <span safe>{invited.invitation.email}</span>
          </h2>
          <p>
            Send this link to them yourself (this service sends no email). It works once, until <span safe>{when(invited.invitation.expiresAt)}</span>
            , and this is the only time it is shown.
          </p>
          <ShownOnce id="invite-link" value={invited.link} />
        </section>
      ) : (
        ""
      )}
      <ListTable
        title="Members"
        empty="No members."
        columns={["Name", "Email", "Roles", "Member since", ...(canChange || canRemove ? ["Action"] : [])]}
        rows={members.map((m) => (
          <tr>
            <td safe>{m.name}</td>
            <td safe>{m.email}</td>
            <td safe>{m.roles.join(", ")}</td>
            <td safe>{when(m.createdAt)}</td>
            {canChange || canRemove ? (
              <td class="row-actions">
                {canChange ? (
                  <a href={memberPath(m.id, "roles")}>
                    Change roles<span class="visually-hidden" safe>{` of ${m.name}`}</span>
                  </a>
                ) : (
                  ""
                )}{" "}
                {canRemove ? (
                  <a href={memberPath(m.id, "remove")} class="danger-link">
                    Remove<span class="visually-hidden" safe>{` ${m.name}`}</span>
                  </a>
                ) : (
                  ""
                )}
              </td>
            ) : (
              ""
            )}
          </tr>
        ))}
      />
      <section aria-labelledby="invitations-title">
        <h2 id="invitations-title">Pending invitations</h2>
        {invitations.length === 0 ? (
          <p>No pending invitations.</p>
        ) : (
          <div class="table-wrap" tabindex="0">
            <table>
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Roles</th>
                  <th scope="col">Invited by</th>
                  <th scope="col">Expires</th>
                </tr>
              </thead>
              <tbody>
                {invitations.map((i) => (
                  <tr>
                    <td safe>{i.email}</td>
                    <td safe>{i.roles.join(", ")}</td>
                    <td safe>{members.find((m) => m.operatorId === i.invitedBy)?.email ?? i.invitedBy}</td>
                    <td safe>{when(i.expiresAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {canInvite ? (
        <section aria-labelledby="invite-title">
          <h2 id="invite-title">Invite someone</h2>
          <p class="hint">You may grant only roles you hold yourself (an owner or admin holds every role; only an owner grants owner).</p>
          <FormError message={form?.error ?? null} />
          <form method="post" action={PATH} class="stack">
            <input type="hidden" name="csrf" value={session.csrfToken} />
            <OnceKey />
            <Field name="email" label="Email" type="email" value={form?.values.email} error={form?.fields.email} required autocomplete="off" />
            <RoleBoxes checked={form?.roles ?? []} error={form?.fields.roles} />
            <button type="submit" class="primary">
              Invite
            </button>
          </form>
        </section>
      ) : (
        <p class="hint">Your role lets you see members, not invite, change or remove them.</p>
      )}
    </Shell>
  );
}

/** Change a member's roles: the checkboxes as they are now (or as the refused form had them), and the API's refusal. */
export function RolesPage({ session, member, form }: { session: PageSession; member: MemberView; form?: FormState }) {
  return (
    <Shell title="Change roles" session={session} path={PATH}>
      <p>
        Roles of <strong safe>{member.name}</strong> (<span safe>{member.email}</span>). A change applies on their next request.
      </p>
      <FormError message={form?.error ?? null} />
      <form method="post" action={memberPath(member.id, "roles")} class="stack">
        <input type="hidden" name="csrf" value={session.csrfToken} />
        <RoleBoxes checked={form?.roles ?? member.roles} error={form?.fields.roles} />
        <div class="actions">
          <button type="submit" class="primary">
            Save roles
          </button>
          <a href={PATH}>Cancel</a>
        </div>
      </form>
    </Shell>
  );
}

/** The confirmation step before removing a member: who goes, and what ends with them. */
export function RemovePage({ session, member, error }: { session: PageSession; member: MemberView; error?: string | null }) {
  return (
    <Shell title="Remove member" session={session} path={PATH}>
      <FormError message={error ?? null} />
      <p>
        Remove <strong safe>{member.name}</strong> (<span safe>{member.email}</span>) from the team? Every session they hold ends at once; to come
        back they need a new invitation.
      </p>
      <form method="post" action={memberPath(member.id, "remove")} class="actions">
        <input type="hidden" name="csrf" value={session.csrfToken} />
        <button type="submit" class="danger">
          Remove member
        </button>
        <a href={PATH}>Cancel</a>
      </form>
    </Shell>
  );
}
