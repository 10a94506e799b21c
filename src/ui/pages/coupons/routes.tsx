/** The coupons section's routes: the list and create form, a coupon's page and edit form, archive after a confirmation. */
import { readAll, type Api } from "../../api";
import { formOf, given, text, type Section } from "../../kit";
import { page, redirect } from "../../response";
import type { PageSession } from "../../session";
import { integer, many, refusal } from "../../forms";
import { READ_ONLY } from "../plans/shared";
import {
  ArchiveCouponPage,
  CouponPage,
  type CouponProps,
  CouponsPage,
  type CouponsProps,
  type CouponView,
  couponValues,
  PATH,
  type PlanChoice,
} from "./page";

const enc = encodeURIComponent;
const FIELDS = { planIds: "planIds" };

/** The plans a coupon may be restricted to: the catalog's, every page (none when they cannot be read). */
async function planChoices(api: Api): Promise<PlanChoice[]> {
  const answer = await readAll(api, "/dashboard/plans");
  return answer.status === 200 ? (answer.body.data as PlanChoice[]) : [];
}

export const couponPages: Section = (kit) => (app) => {
  const listPage = async (
    api: Api,
    session: PageSession,
    query: Record<string, string | undefined>,
    extra: Partial<CouponsProps> = {},
    status = 200,
  ) => {
    const includeArchived = query.includeArchived === "true";
    const q = new URLSearchParams();
    if (includeArchived) q.set("includeArchived", "true");
    if (query.cursor) q.set("cursor", query.cursor);
    const list = await api({ method: "GET", path: `${PATH}?${q}` });
    if (list.status !== 200) return kit.refusedBy(list, "The coupons could not be read", session);
    const plans = await planChoices(api);
    return page(
      <CouponsPage
        session={session}
        coupons={list.body.data}
        plans={plans}
        nextCursor={list.body.nextCursor ?? null}
        includeArchived={includeArchived}
        done={query.done}
        {...extra}
      />,
      status,
    );
  };
  const readCoupon = (api: Api, id: string) => api({ method: "GET", path: `${PATH}/${enc(id)}` });
  const couponPage = async (api: Api, session: PageSession, id: string, extra: Partial<CouponProps> = {}, status = 200) => {
    const answer = await readCoupon(api, id);
    if (answer.status !== 200) return kit.refusedBy(answer, "The coupon could not be read", session);
    return page(<CouponPage session={session} coupon={answer.body.data} plans={await planChoices(api)} {...extra} />, status);
  };

  return app
    .get(PATH, ({ request, query }) => kit.signedIn(request, (api, session) => listPage(api, session, query)))
    .post(PATH, ({ request, body }) =>
      kit.signedIn(request, async (api, session) => {
        const form = formOf(body);
        const planIds = many((body as Record<string, unknown> | null)?.planIds);
        const input = {
          code: form.code ?? "",
          name: given(form.name),
          percentOff: given(form.percentOff),
          amountOff: given(form.amountOff),
          currency: given(form.currency),
          duration: form.duration ?? "",
          durationPeriods: integer(form.durationPeriods),
          maxRedemptions: integer(form.maxRedemptions),
          expiresAt: given(form.expiresAt),
          planIds: planIds.length ? planIds : undefined,
        };
        const answer = await kit.send(api, form, { method: "POST", path: PATH, body: input });
        if (answer.status === 201) return redirect(`${PATH}/${enc(answer.body.data.id)}?done=created`);
        if (answer.status === 403) return kit.refusedBy(answer, "Refused", session);
        return listPage(api, session, {}, { form: { ...refusal(answer, form, FIELDS), planIds } }, answer.status);
      }),
    )
    .get(`${PATH}/:id`, ({ request, params, query }) =>
      kit.signedIn(request, (api, session) => couponPage(api, session, params.id, { done: query.done })),
    )
    .post(`${PATH}/:id/edit`, ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const form = formOf(body);
        const planIds = many((body as Record<string, unknown> | null)?.planIds);
        const current = await readCoupon(api, params.id);
        if (current.status !== 200) return kit.refusedBy(current, "The coupon could not be read", session);
        const coupon = current.body.data as CouponView;
        const was = couponValues(coupon);
        // Only what changed: the expiry as it was may be past now, and a redeemed coupon's terms may not change.
        const patch: Record<string, unknown> = {};
        const changed = (name: string) => text(form[name]).trim() !== was[name];
        if (changed("name")) patch.name = form.name ?? "";
        for (const name of ["percentOff", "amountOff", "currency", "expiresAt"]) if (changed(name)) patch[name] = given(form[name]) ?? null;
        if (changed("duration")) patch.duration = form.duration ?? "";
        for (const name of ["durationPeriods", "maxRedemptions"]) if (changed(name)) patch[name] = integer(form[name]) ?? null;
        if ([...planIds].sort().join(",") !== [...coupon.planIds].sort().join(",")) patch.planIds = planIds;
        const answer = await kit.send(api, form, { method: "PATCH", path: `${PATH}/${enc(params.id)}`, body: patch });
        if (answer.status === 200) return redirect(`${PATH}/${enc(params.id)}?done=updated`);
        if (answer.status === 403 || answer.status === 404) return kit.refusedBy(answer, "Refused", session);
        return couponPage(api, session, params.id, { form: { ...refusal(answer, form, FIELDS), planIds } }, answer.status);
      }),
    )
    .get(`${PATH}/:id/archive`, ({ request, params }) =>
      kit.signedIn(request, async (api, session) => {
        if (!session.may("DELETE", "/dashboard/coupons/{id}")) return kit.refused(403, READ_ONLY, session);
        const answer = await readCoupon(api, params.id);
        if (answer.status !== 200) return kit.refusedBy(answer, "The coupon could not be read", session);
        return page(<ArchiveCouponPage session={session} coupon={answer.body.data} />);
      }),
    )
    .post(`${PATH}/:id/archive`, ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const answer = await kit.send(api, formOf(body), { method: "DELETE", path: `${PATH}/${enc(params.id)}` });
        if (answer.status !== 200) return kit.refusedBy(answer, "The coupon could not be archived", session);
        return redirect(`${PATH}?done=archived`);
      }),
    );
};
