/** API keys of the session's environment: the list with last use, create (the raw key shown once), revoke. */
import { Field, FormError, ListTable, OnceKey, Select, Shell, ShownOnce, when } from "../../layout";
import type { PageSession } from "../../session";

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  type: string;
  permissions: string[];
  description: string | null;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  createdAt?: string;
}

export interface ApiKeysProps {
  session: PageSession;
  keys: ApiKeyView[];
  /** the key just created, with its raw value: printed in this one answer only */
  created?: ApiKeyView & { key: string };
  form?: { values: Record<string, string>; error: string | null; fields: Record<string, string> };
}

export const KEY_TYPES = ["secret", "restricted", "publishable", "legacy"] as const;
const PATH = "/dashboard/api-keys";

// A value of its own, printed with `safe`: the XSS scan does not see into a conditional expression.
const keyStatus = (k: { revokedAt: string | null }): string => (k.revokedAt ? `Revoked ${when(k.revokedAt)}` : "Active");

export function ApiKeysPage({ session, keys, created, form }: ApiKeysProps) {
  const canWrite = session.may("POST", PATH);
  const canRevoke = session.may("DELETE", `${PATH}/{id}`);
  return (
    <Shell title="API keys" session={session} path={PATH}>
      {created ? (
        <section class="notice" aria-labelledby="created-title">
          <h2 id="created-title">
            New key: <span safe>{created.name}</span>
          </h2>
          <p>Copy it now: this is the only time it is shown. Only its first characters are kept.</p>
          <ShownOnce id="raw-key" value={created.key} />
        </section>
      ) : (
        ""
      )}
      <ListTable
        title={`Keys in ${session.environment}`}
        empty="No keys yet."
        columns={["Name", "Key", "Type", "Last used", "Status", ...(canRevoke ? ["Action"] : [])]}
        rows={keys.map((k) => (
          <tr>
            <td safe>{k.name}</td>
            <td>
              <code safe>{`${k.prefix}…`}</code>
            </td>
            <td safe>{k.type.toLowerCase()}</td>
            <td safe>{when(k.lastUsedAt)}</td>
            <td safe>{keyStatus(k)}</td>
            {canRevoke ? (
              <td>
                {k.revokedAt ? (
                  ""
                ) : (
                  <a href={`${PATH}/${encodeURIComponent(k.id)}/revoke`} class="danger-link">
                    Revoke<span class="visually-hidden" safe>{` ${k.name}`}</span>
                  </a>
                )}
              </td>
            ) : (
              ""
            )}
          </tr>
        ))}
      />
      {canWrite ? (
        <section aria-labelledby="create-title">
          <h2 id="create-title">Create a key</h2>
          <FormError message={form?.error ?? null} />
          <form method="post" action={PATH} class="stack">
            <input type="hidden" name="csrf" value={session.csrfToken} />
            <OnceKey />
            <Field name="name" label="Name" value={form?.values.name} error={form?.fields.name} required />
            <Select name="type" label="Type" options={KEY_TYPES} value={form?.values.type ?? "secret"} error={form?.fields.type} />
            <Field name="description" label="Description (optional)" value={form?.values.description} error={form?.fields.description} />
            <button type="submit" class="primary">
              Create key
            </button>
          </form>
        </section>
      ) : (
        <p class="hint">Your role lets you read keys, not create or revoke them.</p>
      )}
    </Shell>
  );
}

/** The confirmation step before a revoke: what goes, and that it cannot be undone. */
export function RevokePage({ session, apiKey, error }: { session: PageSession; apiKey: ApiKeyView; error?: string | null }) {
  return (
    <Shell title="Revoke API key" session={session} path={PATH}>
      <FormError message={error ?? null} />
      <p>
        Revoke <strong safe>{apiKey.name}</strong> (<code safe>{`${apiKey.prefix}…`}</code>)? Every call made with it fails from now on, on every
        instance. This cannot be undone.
      </p>
      <form method="post" action={`${PATH}/${encodeURIComponent(apiKey.id)}/revoke`} class="actions">
        <input type="hidden" name="csrf" value={session.csrfToken} />
        <button type="submit" class="danger">
          Revoke key
        </button>
        <a href={PATH}>Cancel</a>
      </form>
    </Shell>
  );
}
