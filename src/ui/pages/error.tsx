/** A refusal as a page: the API's message, with the shell when there is a session to show. */
import { Document, Shell } from "../layout";
import type { PageSession } from "../session";

export function ErrorPage({ status, message, session }: { status: number; message: string; session: PageSession | null }) {
  const body = (
    <>
      <p class="form-error" role="alert" safe>
        {message}
      </p>
      <p>
        <a href="/dashboard">Back to the dashboard</a>
      </p>
    </>
  );
  if (session)
    return (
      <Shell title={`Refused (${status})`} session={session} path="/dashboard">
        {body}
      </Shell>
    );
  return (
    <Document title={`Refused (${status}) · Billing`}>
      <main id="main" class="narrow">
        <h1 safe>{`Refused (${status})`}</h1>
        {body}
      </main>
    </Document>
  );
}
