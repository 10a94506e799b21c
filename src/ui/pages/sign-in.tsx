/** Sign in with a password, or with a one-time link printed by the CLI (`sign-in-link`, opened at /dashboard/sign-in#token=…). */
import { Document, Field, FormError } from "../layout";

export interface SignInProps {
  email?: string;
  teamId?: string;
  error?: string | null;
  fields?: Record<string, string>;
  /** the link form's refusal, shown beside it */
  linkError?: string | null;
}

export function SignInPage({ email, teamId, error, fields = {}, linkError }: SignInProps) {
  return (
    <Document title="Sign in · Billing">
      <main id="main" class="narrow">
        <h1>Sign in</h1>
        <FormError message={error ?? null} />
        <form method="post" action="/dashboard/sign-in" class="stack">
          <Field name="email" label="Email" type="email" value={email} error={fields.email} required autocomplete="username" />
          <Field name="password" label="Password" type="password" error={fields.password} required autocomplete="current-password" />
          <Field
            name="teamId"
            label="Team id (optional)"
            value={teamId}
            error={fields.teamId}
            hint="Leave empty for your first team; give a team's id to sign in to another of your teams."
          />
          <button type="submit" class="primary">
            Sign in
          </button>
        </form>
        <h2>Or with a one-time link</h2>
        <p class="hint">
          The operator CLI's <code>sign-in-link</code> prints a link that opens this page with its token filled in (the token travels in the link's
          fragment, which the browser never sends to a server). It works once, within 15 minutes.
        </p>
        <FormError message={linkError ?? null} />
        <form method="post" action="/dashboard/sign-in/link" class="stack" id="link-form">
          <Field name="token" label="Link token" error={fields.token} autocomplete="off" required />
          <button type="submit">Sign in with the link</button>
        </form>
      </main>
    </Document>
  );
}
