/** The catalog's features: the list (newest first, a page at a time) and the create form. */
import { Field, FormError, ListTable, OnceKey, Select, Shell } from "../../layout";
import type { PageSession } from "../../session";
import { DoneNotice } from "../../forms";

export interface FeatureView {
  id: string;
  name: string;
  featureKey: string;
  featureType: string;
  eventKey: string;
  description: string;
  linkedPlans: { id: string; name: string }[];
  icon?: string;
  archived?: boolean;
  archivedAt?: string | null;
}

export interface FeaturesProps {
  session: PageSession;
  features: FeatureView[];
  nextCursor: string | null;
  form?: { values: Record<string, string>; error: string | null; fields: Record<string, string> };
  created?: string;
  /** what just happened (a fixed notice of this page, never text from the address) */
  done?: string;
  includeArchived?: boolean;
}

export const FEATURE_TYPES = ["boolean", "event", "trait"] as const;
export const PATH = "/dashboard/features";
export const NOTICES = { deleted: "The feature was deleted: no plan used it and it had no usage history." };
export const featurePath = (f: { featureKey: string }) => `${PATH}/${encodeURIComponent(f.featureKey)}`;
export const featureStatus = (f: { archivedAt?: string | null }): string => (f.archivedAt ? "Archived" : "Active");

export function FeaturesPage({ session, features, nextCursor, form, created, done, includeArchived }: FeaturesProps) {
  const canWrite = session.may("POST", PATH);
  const archivedQuery = includeArchived ? "&includeArchived=true" : "";
  const toggle = includeArchived ? PATH : `${PATH}?includeArchived=true`;
  const toggleText = includeArchived ? "Hide archived features" : "Show archived features";
  return (
    <Shell title="Features" session={session} path={PATH}>
      {created ? (
        <p class="notice" role="status">
          Feature <strong safe>{created}</strong> created.
        </p>
      ) : (
        ""
      )}
      <DoneNotice notices={NOTICES} done={done} />
      <p>
        <a href={toggle}>{toggleText}</a>
      </p>
      <ListTable
        title={`Features in ${session.environment}`}
        empty="No features yet."
        columns={["Name", "Key", "Type", "Event key", "Plans", "Description", "Status"]}
        rows={features.map((f) => (
          <tr>
            <td>
              <a href={featurePath(f)} safe>
                {f.name}
              </a>
            </td>
            <td>
              <code safe>{f.featureKey}</code>
            </td>
            <td safe>{f.featureType}</td>
            <td safe>{f.eventKey || "—"}</td>
            <td safe>{f.linkedPlans.map((p) => p.name).join(", ") || "—"}</td>
            <td safe>{f.description}</td>
            <td safe>{featureStatus(f)}</td>
          </tr>
        ))}
      >
        {nextCursor ? (
          <p>
            <a href={`${PATH}?cursor=${encodeURIComponent(nextCursor)}${archivedQuery}`}>Next page</a>
          </p>
        ) : (
          ""
        )}
      </ListTable>
      {canWrite ? (
        <section aria-labelledby="create-title">
          <h2 id="create-title">Create a feature</h2>
          <FormError message={form?.error ?? null} />
          <form method="post" action={PATH} class="stack">
            <input type="hidden" name="csrf" value={session.csrfToken} />
            <OnceKey />
            <Field name="name" label="Name" value={form?.values.name} error={form?.fields.name} required />
            <Field
              name="featureKey"
              label="Feature key"
              value={form?.values.featureKey}
              error={form?.fields.featureKey}
              hint="Lowercase letters, digits and _ . : - ; never changes. A track event of this name meters the feature."
              required
            />
            <Select
              name="featureType"
              label="Type"
              options={FEATURE_TYPES}
              value={form?.values.featureType ?? "boolean"}
              error={form?.fields.featureType}
            />
            <Field name="eventKey" label="Event key (optional)" value={form?.values.eventKey} error={form?.fields.eventKey} />
            <Field name="description" label="Description (optional)" value={form?.values.description} error={form?.fields.description} />
            <button type="submit" class="primary">
              Create feature
            </button>
          </form>
        </section>
      ) : (
        <p class="hint">Your role lets you read the catalog, not change it.</p>
      )}
    </Shell>
  );
}
