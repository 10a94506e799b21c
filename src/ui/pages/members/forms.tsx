/** The members section's forms: the role checkboxes (shared by invite and change roles), and their refusals. */
import { DASHBOARD_ROLES } from "../../../auth/kinds";

/** What a refused form brings back: the values typed, the API's message for the form and for each field. */
export interface FormState {
  values: Record<string, string>;
  roles: string[];
  error: string | null;
  fields: Record<string, string>;
}

/** What each role lets a member do, beside its checkbox. */
const ROLE_HINTS: Record<string, string> = {
  owner: "everything, and granting owner",
  admin: "everything but granting owner",
  "members:read": "see members and invitations",
  "members:write": "invite, change roles, remove (only roles they hold)",
  "audit:read": "read the audit log",
};

/** The roles as checkboxes, in a fieldset with its legend, the API's message for `roles` below. */
export function RoleBoxes({ checked, error }: { checked: readonly string[]; error?: string }) {
  return (
    <fieldset class={error ? "roles invalid" : "roles"} aria-describedby={error ? "roles-error" : undefined}>
      <legend>Roles</legend>
      {(DASHBOARD_ROLES as readonly string[]).map((role) => {
        const id = `role-${role.replace(":", "-")}`;
        const hint = ROLE_HINTS[role] ?? "";
        return (
          <div class="role-box">
            <input type="checkbox" id={id} name="roles" value={role} checked={checked.includes(role)} />
            <label for={id}>
              <code safe>{role}</code>{" "}
              <span class="hint" safe>
                {hint}
              </span>
            </label>
          </div>
        );
      })}
      {error ? (
        <p class="field-error" id="roles-error" safe>
          {error}
        </p>
      ) : (
        ""
      )}
    </fieldset>
  );
}
