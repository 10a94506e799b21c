/** Coupons: the list and create form, a coupon's page with its edit form, and the confirmation before archiving. */
import { Field, FormError, ListTable, OnceKey, type Option, Select, Shell, when } from "../../layout";
import type { PageSession } from "../../session";
import { ConfirmPage, type FormState, DoneNotice, ReadOnly } from "../../forms";

export interface CouponView {
  id: string;
  code: string;
  name: string;
  percentOff: string | null;
  amountOff: string | null;
  currency: string | null;
  duration: string;
  durationPeriods: number | null;
  maxRedemptions: number | null;
  redemptions: number;
  expiresAt: string | null;
  planIds: string[];
  archived: boolean;
  archivedAt: string | null;
  createdAt: string;
}

/** A plan a coupon may be restricted to. */
export interface PlanChoice {
  id: string;
  name: string;
}

export const PATH = "/dashboard/coupons";
const DURATIONS: Option[] = [
  { value: "once", label: "Once (the first period)" },
  { value: "repeating", label: "Repeating (a number of periods)" },
  { value: "forever", label: "Forever" },
];
const NOTICES = { created: "Coupon created.", updated: "Changes saved.", archived: "Coupon archived: it can no longer be redeemed." };

export const discount = (c: CouponView): string => (c.percentOff !== null ? `${c.percentOff}% off` : `${c.amountOff ?? "?"} ${c.currency ?? ""} off`);
export const durationText = (c: CouponView): string => (c.duration === "repeating" ? `${c.durationPeriods ?? "?"} periods` : c.duration);
export const redemptionsText = (c: CouponView): string =>
  c.maxRedemptions === null ? `${c.redemptions}` : `${c.redemptions} of ${c.maxRedemptions}`;
const plansText = (c: CouponView, plans: PlanChoice[]): string =>
  c.planIds.length === 0 ? "Any" : c.planIds.map((id) => plans.find((p) => p.id === id)?.name ?? id).join(", ");
const statusText = (c: CouponView): string => (c.archivedAt ? `Archived ${when(c.archivedAt)}` : "Active");
const couponPath = (c: { id: string }) => `${PATH}/${encodeURIComponent(c.id)}`;

export interface CouponsProps {
  session: PageSession;
  coupons: CouponView[];
  plans: PlanChoice[];
  nextCursor: string | null;
  includeArchived: boolean;
  form?: FormState & { planIds?: string[] };
  done?: string;
}

/** The fields of a coupon's terms, shared by the create and edit forms. */
function TermFields({ v, f, plans, planIds }: { v: Record<string, string>; f: Record<string, string>; plans: PlanChoice[]; planIds: string[] }) {
  return (
    <>
      <Field
        name="percentOff"
        label="Percent off"
        value={v.percentOff}
        error={f.percentOff}
        hint="0.01 to 100, at most 2 fractional digits; or an amount off below."
      />
      <Field
        name="amountOff"
        label="Amount off"
        value={v.amountOff}
        error={f.amountOff}
        hint="A decimal, at most 6 fractional digits, with a currency."
      />
      <Field name="currency" label="Currency (with an amount off)" value={v.currency} error={f.currency} />
      <Select name="duration" label="Duration" options={DURATIONS} value={v.duration ?? "once"} error={f.duration} />
      <Field name="durationPeriods" label="Periods (repeating)" value={v.durationPeriods} error={f.durationPeriods} />
      <Field name="maxRedemptions" label="Maximum redemptions (optional)" value={v.maxRedemptions} error={f.maxRedemptions} />
      <Field
        name="expiresAt"
        label="Expires at (optional)"
        value={v.expiresAt}
        error={f.expiresAt}
        hint="A date and time in UTC, like 2027-01-31T23:59:00Z; in the future."
      />
      <Select
        name="planIds"
        label="Plans (none chosen: any plan)"
        options={plans.map((p) => ({ value: p.id, label: p.name }))}
        multiple
        values={planIds}
        error={f.planIds}
      />
    </>
  );
}

export function CouponsPage({ session, coupons, plans, nextCursor, includeArchived, form, done }: CouponsProps) {
  const canWrite = session.may("POST", PATH);
  const v = form?.values ?? {};
  const f = form?.fields ?? {};
  const next = nextCursor ? `${PATH}?${new URLSearchParams({ cursor: nextCursor, ...(includeArchived ? { includeArchived: "true" } : {}) })}` : null;
  const toggle = includeArchived ? PATH : `${PATH}?includeArchived=true`;
  const toggleText = includeArchived ? "Hide archived coupons" : "Show archived coupons";
  return (
    <Shell title="Coupons" session={session} path={PATH}>
      <DoneNotice notices={NOTICES} done={done} />
      <p>
        <a href={toggle}>{toggleText}</a>
      </p>
      <ListTable
        id="coupons-title"
        title={`Coupons in ${session.environment}`}
        empty="No coupons here yet."
        columns={["Code", "Name", "Discount", "Duration", "Redemptions", "Expires", "Plans", "Status"]}
        rows={coupons.map((c) => (
          <tr>
            <td>
              <a href={couponPath(c)}>
                <code safe>{c.code}</code>
              </a>
            </td>
            <td safe>{c.name}</td>
            <td safe>{discount(c)}</td>
            <td safe>{durationText(c)}</td>
            <td safe>{redemptionsText(c)}</td>
            <td safe>{when(c.expiresAt)}</td>
            <td safe>{plansText(c, plans)}</td>
            <td safe>{statusText(c)}</td>
          </tr>
        ))}
      >
        {next ? (
          <p>
            <a href={next}>Next page</a>
          </p>
        ) : (
          ""
        )}
      </ListTable>
      {canWrite ? (
        <section aria-labelledby="create-title">
          <h2 id="create-title">Create a coupon</h2>
          <FormError message={form?.error ?? null} />
          <form method="post" action={PATH} class="stack">
            <input type="hidden" name="csrf" value={session.csrfToken} />
            <OnceKey />
            <Field name="code" label="Code" value={v.code} error={f.code} hint="A-Z a-z 0-9 _ - ; unique in any case." required />
            <Field name="name" label="Name (optional)" value={v.name} error={f.name} hint="Default: the code." />
            <TermFields v={v} f={f} plans={plans} planIds={form?.planIds ?? []} />
            <button type="submit" class="primary">
              Create coupon
            </button>
          </form>
        </section>
      ) : (
        <ReadOnly what="coupons" />
      )}
    </Shell>
  );
}

export interface CouponProps {
  session: PageSession;
  coupon: CouponView;
  plans: PlanChoice[];
  form?: FormState & { planIds?: string[] };
  done?: string;
}

/** The form's values from the coupon as the API answered it. */
export const couponValues = (c: CouponView): Record<string, string> => ({
  name: c.name,
  percentOff: c.percentOff ?? "",
  amountOff: c.amountOff ?? "",
  currency: c.currency ?? "",
  duration: c.duration,
  durationPeriods: c.durationPeriods === null ? "" : String(c.durationPeriods),
  maxRedemptions: c.maxRedemptions === null ? "" : String(c.maxRedemptions),
  expiresAt: c.expiresAt ?? "",
});

export function CouponPage({ session, coupon, plans, form, done }: CouponProps) {
  const here = couponPath(coupon);
  const canEdit = session.may("PATCH", `${PATH}/{id}`);
  const canArchive = session.may("DELETE", `${PATH}/{id}`);
  const v = form?.values ?? couponValues(coupon);
  const f = form?.fields ?? {};
  return (
    <Shell title={`Coupon ${coupon.code}`} session={session} path={PATH}>
      <DoneNotice notices={NOTICES} done={done} />
      <p>
        <a href={PATH}>All coupons</a>
      </p>
      <dl class="facts">
        <dt>Name</dt>
        <dd safe>{coupon.name}</dd>
        <dt>Discount</dt>
        <dd safe>{discount(coupon)}</dd>
        <dt>Duration</dt>
        <dd safe>{durationText(coupon)}</dd>
        <dt>Redemptions</dt>
        <dd safe>{redemptionsText(coupon)}</dd>
        <dt>Expires</dt>
        <dd safe>{when(coupon.expiresAt)}</dd>
        <dt>Plans</dt>
        <dd safe>{plansText(coupon, plans)}</dd>
        <dt>Status</dt>
        <dd safe>{statusText(coupon)}</dd>
      </dl>
      {canEdit && !coupon.archived ? (
        <section aria-labelledby="edit-title">
          <h2 id="edit-title">Edit</h2>
          <p class="hint">Once redeemed, a coupon's terms are fixed: its name and expiry may change, and its maximum may only go up.</p>
          <FormError message={form?.error ?? null} />
          <form method="post" action={`${here}/edit`} class="stack">
            <input type="hidden" name="csrf" value={session.csrfToken} />
            <Field name="name" label="Name" value={v.name} error={f.name} required />
            <TermFields v={v} f={f} plans={plans} planIds={form?.planIds ?? coupon.planIds} />
            <button type="submit" class="primary">
              Save changes
            </button>
          </form>
        </section>
      ) : (
        ""
      )}
      {canArchive && !coupon.archived ? (
        <p>
          <a href={`${here}/archive`} class="danger-link">
            Archive this coupon
          </a>
        </p>
      ) : (
        ""
      )}
      {canEdit ? "" : <ReadOnly what="coupons" />}
    </Shell>
  );
}

export function ArchiveCouponPage({ session, coupon }: { session: PageSession; coupon: CouponView }) {
  const here = couponPath(coupon);
  return (
    <ConfirmPage session={session} title={`Archive coupon ${coupon.code}`} path={PATH} action={`${here}/archive`} button="Archive coupon" back={here}>
      <p>
        Archive <code safe>{coupon.code}</code> (<span safe>{coupon.name}</span>, <span safe>{discount(coupon)}</span>)? It can no longer be redeemed
        and leaves the list. Coupons are never deleted: redemptions and invoices refer to them. Discounts already applied stay.
      </p>
    </ConfirmPage>
  );
}
