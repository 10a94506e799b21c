/** The overview's one route: the three reports of the API for the asked ranges, each read only where the roles reach. */
import { readAll, type Api, type ApiAnswer } from "../../api";
import { given, type Section } from "../../kit";
import { page } from "../../response";
import type { PageSession } from "../../session";
import { type Answer, type Asked, OverviewPage, PATH, type RenewalReport, type RevenueReport, type UsageReport } from "./page";

/** The query string of the given values (empty ones left out: the API then applies its defaults). */
function queryOf(values: Record<string, string | undefined>): string {
  const pairs = Object.entries(values).filter((e): e is [string, string] => e[1] !== undefined);
  return pairs.length ? `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&")}` : "";
}

/** A report's answer: the data, a refusal of the asked range (400, 404: shown beside the fields), or null (anything else). */
function answerOf<R>(answer: ApiAnswer): Answer<R> | null {
  if (answer.status === 200) return { ok: true, report: answer.body.data as R };
  if (answer.status !== 400 && answer.status !== 404) return null;
  const fields: Record<string, string> = {};
  const details = answer.body?.details;
  if (details && typeof details === "object") {
    for (const [path, message] of Object.entries(details)) fields[path.replace(/^query\./, "")] = String(message);
  }
  const error = typeof answer.body?.error === "string" ? answer.body.error : `The service answered ${answer.status}`;
  // A 404 names the feature asked for: beside the picker.
  if (answer.status === 404) fields.feature = error;
  return { ok: false, error: Object.keys(fields).length ? null : error, fields };
}

const REPORTS = "/dashboard/reports";

export const overviewPages: Section = (kit) => (app) => {
  const read = async <R,>(api: Api, session: PageSession, path: string, query: Record<string, string | undefined>) => {
    if (!session.may("GET", path)) return { answer: { ok: "hidden" } as Answer<R>, raw: null };
    const raw = await api({ method: "GET", path: `${path}${queryOf(query)}` });
    return { answer: answerOf<R>(raw), raw };
  };
  return app.get(PATH, ({ request, query }) =>
    kit.signedIn(request, async (api, session) => {
      const asked: Asked = {
        feature: given(query.feature),
        from: given(query.from),
        to: given(query.to),
        monthFrom: given(query.monthFrom),
        monthTo: given(query.monthTo),
      };
      const months = { from: asked.monthFrom, to: asked.monthTo };
      const [usage, revenue, renewals, features] = await Promise.all([
        read<UsageReport>(api, session, `${REPORTS}/usage`, { feature: asked.feature, from: asked.from, to: asked.to }),
        read<RevenueReport>(api, session, `${REPORTS}/revenue`, months),
        read<RenewalReport>(api, session, `${REPORTS}/renewals`, months),
        session.may("GET", "/dashboard/features") ? readAll(api, "/dashboard/features") : null,
      ]);
      for (const r of [usage, revenue, renewals]) {
        if (r.answer === null) return kit.refusedBy(r.raw!, "The reports could not be read", session);
      }
      const refusal = [usage, revenue, renewals].find((r) => r.raw && r.raw.status !== 200);
      const list = features?.status === 200 ? (features.body.data as { featureKey: string; name: string }[]) : [];
      return page(
        <OverviewPage
          session={session}
          asked={asked}
          usage={usage.answer!}
          features={list.map((f) => ({ featureKey: f.featureKey, name: f.name }))}
          revenue={revenue.answer!}
          renewals={renewals.answer!}
        />,
        refusal?.raw?.status ?? 200,
      );
    }),
  );
};
