/**
 * The deliberate steps of an endpoint: reveal its signing secret (a button; the secret is printed only in the
 * answer to that post, never by a GET), rotate it (the new one shown once), delete it.
 */
import { Field, FormError, OnceKey, Shell, ShownOnce, when } from "../../layout";
import type { PageSession } from "../../session";
import { type EndpointView, endpointPath, PATH } from "./page";

function Which({ endpoint }: { endpoint: EndpointView }) {
  return (
    <p>
      Endpoint{" "}
      <code class="url" safe>
        {endpoint.url}
      </code>
    </p>
  );
}

export function RevealPage({ session, endpoint }: { session: PageSession; endpoint: EndpointView }) {
  const here = endpointPath(endpoint.id);
  return (
    <Shell title="Reveal signing secret" session={session} path={PATH}>
      <Which endpoint={endpoint} />
      <p>
        The secret lets anyone who holds it sign requests your receiver accepts. Revealing it is recorded in the audit log; it is shown on the next
        page only, not kept in this browser.
      </p>
      <form method="post" action={`${here}/secret`} class="actions">
        <input type="hidden" name="csrf" value={session.csrfToken} />
        <button type="submit" class="primary">
          Reveal secret
        </button>
        <a href={here}>Cancel</a>
      </form>
    </Shell>
  );
}

export interface SecretView {
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
}

/** The secret, in the answer to a post only (no-store), with the copy button of the API keys page. */
export function SecretPage({
  session,
  endpoint,
  secret,
  rotated,
}: {
  session: PageSession;
  endpoint: EndpointView;
  secret: SecretView;
  rotated: boolean;
}) {
  const title: string = rotated ? "New signing secret" : "Signing secret";
  const heading: string = rotated ? "The new secret" : "The current secret";
  const lead: string = rotated
    ? "The secret was rotated: the new one signs every delivery from now on. Copy it now and give it to your receiver."
    : "Copy it into your receiver's configuration. This page is not kept: reload or come back and it is gone.";
  const previous = secret.previousSecretExpiresAt
    ? `The previous secret also signs until ${when(secret.previousSecretExpiresAt)}, so a receiver not yet updated keeps verifying.`
    : "";
  return (
    <Shell title={title} session={session} path={PATH}>
      <Which endpoint={endpoint} />
      <section class="notice" aria-labelledby="secret-title">
        <h2 id="secret-title" safe>
          {heading}
        </h2>
        <p safe>{lead}</p>
        <ShownOnce id="webhook-secret" value={secret.secret} />
        {previous ? <p safe>{previous}</p> : ""}
        {secret.previousSecret ? (
          <p class="secret">
            Previous:{" "}
            <code id="webhook-previous-secret" safe>
              {secret.previousSecret}
            </code>
          </p>
        ) : (
          ""
        )}
      </section>
      <p>
        <a href={endpointPath(endpoint.id)}>Back to the endpoint</a>
      </p>
    </Shell>
  );
}

export function RotatePage({
  session,
  endpoint,
  form,
}: {
  session: PageSession;
  endpoint: EndpointView;
  form?: { values: Record<string, string | string[] | undefined>; error: string | null; fields: Record<string, string> };
}) {
  const here = endpointPath(endpoint.id);
  const typed = form?.values.overlapSeconds;
  return (
    <Shell title="Rotate signing secret" session={session} path={PATH}>
      <Which endpoint={endpoint} />
      <p>
        A new secret signs every delivery from now on. During the overlap the previous one signs beside it, so a receiver still holding it keeps
        verifying; after the overlap, only the new one. The new secret is shown once, on the next page.
      </p>
      <FormError message={form?.error ?? null} />
      <form method="post" action={`${here}/rotate`} class="stack">
        <input type="hidden" name="csrf" value={session.csrfToken} />
        <OnceKey />
        <Field
          name="overlapSeconds"
          label="Overlap in seconds"
          value={Array.isArray(typed) ? typed.join(",") : (typed ?? "86400")}
          error={form?.fields.overlapSeconds}
          hint="86400 is a day; at most 604800 (a week); 0: the previous secret stops signing at once."
        />
        <div class="actions">
          <button type="submit" class="danger">
            Rotate secret
          </button>
          <a href={here}>Cancel</a>
        </div>
      </form>
    </Shell>
  );
}

export function DeletePage({ session, endpoint, error }: { session: PageSession; endpoint: EndpointView; error?: string | null }) {
  const here = endpointPath(endpoint.id);
  return (
    <Shell title="Delete webhook endpoint" session={session} path={PATH}>
      <FormError message={error ?? null} />
      <Which endpoint={endpoint} />
      <p>Delete it with its delivery log? Pending attempts stop and nothing more is sent to it. This cannot be undone.</p>
      <form method="post" action={`${here}/delete`} class="actions">
        <input type="hidden" name="csrf" value={session.csrfToken} />
        <button type="submit" class="danger">
          Delete endpoint
        </button>
        <a href={here}>Cancel</a>
      </form>
    </Shell>
  );
}
