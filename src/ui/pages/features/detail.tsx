/** One feature: what it is, its edit form, restore when archived, and the confirmation before archive or delete. */
import { Field, FormError, Select, Shell, when } from "../../layout";
import type { PageSession } from "../../session";
import { ConfirmPage, type FormState, DoneNotice, ReadOnly } from "../../forms";
import { FEATURE_TYPES, type FeatureView, featurePath, PATH } from "./page";

const NOTICES = {
  updated: "Changes saved.",
  archived: "The feature was archived, not deleted: it has usage history. It grants and meters nothing until restored.",
  restored: "The feature was restored.",
};

/** The edit form's values from the feature as the API answered it. */
export const featureValues = (f: FeatureView): Record<string, string> => ({
  name: f.name,
  description: f.description,
  eventKey: f.eventKey,
  featureType: f.featureType,
  icon: f.icon ?? "",
});

export function FeaturePage({ session, feature, form, done }: { session: PageSession; feature: FeatureView; form?: FormState; done?: string }) {
  const here = featurePath(feature);
  const canEdit = session.may("PATCH", `${PATH}/{feature}`);
  const canRemove = session.may("DELETE", `${PATH}/{feature}`);
  const v = form?.values ?? featureValues(feature);
  const f = form?.fields ?? {};
  const plans = feature.linkedPlans.map((p) => p.name).join(", ") || "—";
  const status = feature.archivedAt ? `Archived ${when(feature.archivedAt)}` : "Active";
  return (
    <Shell title={`Feature ${feature.name}`} session={session} path={PATH}>
      <DoneNotice notices={NOTICES} done={done} />
      <p>
        <a href={PATH}>All features</a>
      </p>
      <dl class="facts">
        <dt>Key</dt>
        <dd>
          <code safe>{feature.featureKey}</code>
        </dd>
        <dt>Type</dt>
        <dd safe>{feature.featureType}</dd>
        <dt>Event key</dt>
        <dd safe>{feature.eventKey || "—"}</dd>
        <dt>Plans</dt>
        <dd safe>{plans}</dd>
        <dt>Description</dt>
        <dd safe>{feature.description || "—"}</dd>
        <dt>Status</dt>
        <dd safe>{status}</dd>
      </dl>
      {canEdit ? (
        <section aria-labelledby="edit-title">
          <h2 id="edit-title">Edit</h2>
          <FormError message={form?.error ?? null} />
          <form method="post" action={`${here}/edit`} class="stack">
            <input type="hidden" name="csrf" value={session.csrfToken} />
            <Field name="name" label="Name" value={v.name} error={f.name} required />
            <Select name="featureType" label="Type" options={FEATURE_TYPES} value={v.featureType} error={f.featureType} />
            <Field
              name="eventKey"
              label="Event key"
              value={v.eventKey}
              error={f.eventKey}
              hint="A second track event name for the feature; empty removes it."
            />
            <Field name="icon" label="Icon" value={v.icon} error={f.icon} />
            <Field name="description" label="Description" value={v.description} error={f.description} />
            <button type="submit" class="primary">
              Save changes
            </button>
          </form>
          {feature.archived ? (
            <form method="post" action={`${here}/restore`} class="actions">
              <input type="hidden" name="csrf" value={session.csrfToken} />
              <button type="submit">Restore feature</button>
            </form>
          ) : (
            ""
          )}
        </section>
      ) : (
        <ReadOnly what="features" />
      )}
      {canRemove && !feature.archived ? (
        <p>
          <a href={`${here}/remove`} class="danger-link">
            Archive or delete this feature
          </a>
        </p>
      ) : (
        ""
      )}
    </Shell>
  );
}

export function RemoveFeaturePage({ session, feature, error }: { session: PageSession; feature: FeatureView; error?: string | null }) {
  const here = featurePath(feature);
  return (
    <ConfirmPage
      session={session}
      title={`Archive or delete ${feature.name}`}
      path={PATH}
      action={`${here}/remove`}
      button="Archive or delete"
      back={here}
      error={error}
    >
      <p>
        Remove the feature <strong safe>{feature.name}</strong> (<code safe>{feature.featureKey}</code>)?
      </p>
      <ul>
        <li>While plans use it, it is neither: remove it from those plans first.</li>
        <li>
          With usage history, it is archived: it grants and meters nothing, leaves the lists, and keeps its history and keys. It can be restored.
        </li>
        <li>Otherwise it is deleted with its company overrides. This cannot be undone.</li>
      </ul>
      <p>The next page says which happened.</p>
    </ConfirmPage>
  );
}
