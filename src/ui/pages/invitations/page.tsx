/** Accepting an invitation: the link's token (from the URL fragment), a name and a password; then signed in. */
import { Document, Field, FormError } from "../../layout";

export interface AcceptProps {
  token?: string;
  name?: string;
  error?: string | null;
  fields?: Record<string, string>;
}

export const ACCEPT_PATH = "/dashboard/invitations/accept";

export function AcceptPage({ token, name, error, fields = {} }: AcceptProps) {
  return (
    <Document title="Accept an invitation · Billing">
      <main id="main" class="narrow">
        <h1>Join a team</h1>
        <p>
          You were invited to a team on this billing service. Choose your name and a password (12 to 256 characters). If you already have an account
          with this email, give its password instead: the name is then ignored.
        </p>
        <FormError message={error ?? null} />
        <form method="post" action={ACCEPT_PATH} class="stack" id="accept-form">
          <Field
            name="token"
            label="Invitation token"
            value={token}
            error={fields.token}
            hint="Filled in from the invitation link; it works once, within 7 days."
            autocomplete="off"
            required
          />
          <Field name="name" label="Your name" value={name} error={fields.name} autocomplete="name" required />
          <Field name="password" label="Password" type="password" error={fields.password} autocomplete="new-password" required />
          <button type="submit" class="primary">
            Accept and sign in
          </button>
        </form>
        <p class="hint">
          Already a member? <a href="/dashboard/sign-in">Sign in</a>.
        </p>
      </main>
    </Document>
  );
}
