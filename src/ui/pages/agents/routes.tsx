/** The agents section's routes: the overview of auto-topup, disable / delete a configuration and remove a funding mandate, each after a confirmation. */
import type { Api, ApiAnswer } from "../../api";
import { formOf, type PageKit, type Section } from "../../kit";
import { page, redirect } from "../../response";
import type { PageSession } from "../../session";
import {
  AgentsPage,
  ConfigConfirmPage,
  FundingRemovePage,
  PATH,
  type ConfigAction,
  type ConfigView,
  type DispatchView,
  type FundingView,
} from "./page";

/** What a done=… after a write says; anything else says nothing. */
const DONE: Record<string, string> = {
  disabled: "Auto-topup disabled.",
  deleted: "Auto-topup deleted.",
  "funding-removed": "Funding mandate removed.",
};

const withCursor = (path: string, cursor: string | undefined, extra = "") => {
  const params = [cursor ? `cursor=${encodeURIComponent(cursor)}` : "", extra].filter(Boolean).join("&");
  return params ? `${path}?${params}` : path;
};

/** Pages through the configurations until `id` is found (the API has no read by id); at most 20 pages. */
async function findConfig(api: Api, id: string): Promise<ConfigView | null> {
  let cursor: string | undefined;
  for (let i = 0; i < 20; i++) {
    const list = await api({ method: "GET", path: withCursor("/dashboard/agent-dispatch", cursor, "limit=200") });
    if (list.status !== 200) return null;
    const found = (list.body.data as ConfigView[]).find((c) => c.id === id);
    if (found) return found;
    cursor = list.body.nextCursor ?? undefined;
    if (!cursor) return null;
  }
  return null;
}

export const agentPages: Section = (kit: PageKit) => (app) => {
  const overview = async (api: Api, session: PageSession, query: Record<string, string | undefined>) => {
    const [configs, dispatches, funding, payments] = await Promise.all([
      api({ method: "GET", path: withCursor("/dashboard/agent-dispatch", query.cursor) }),
      api({ method: "GET", path: withCursor("/dashboard/agent-topups", query.topups) }),
      api({ method: "GET", path: "/dashboard/agent-funding" }),
      api({ method: "GET", path: withCursor("/dashboard/x402-payments", query.payments) }),
    ]);
    for (const answer of [configs, dispatches, funding, payments]) {
      if (answer.status !== 200) return kit.refusedBy(answer, "Auto-topup could not be read", session);
    }
    const configRows = configs.body.data as ConfigView[];
    // Each configuration's newest dispatch: the API's list of its dispatches, one row.
    const last = await Promise.all(
      configRows.map((c) => api({ method: "GET", path: `/dashboard/agent-topups?configId=${encodeURIComponent(c.id)}&limit=1` })),
    );
    const lastDispatch: Record<string, DispatchView | undefined> = {};
    configRows.forEach((c, i) => {
      lastDispatch[c.id] = (last[i] as ApiAnswer).body?.data?.[0];
    });
    return page(
      <AgentsPage
        session={session}
        configs={configRows}
        configsNext={configs.body.nextCursor ?? null}
        lastDispatch={lastDispatch}
        dispatches={dispatches.body.data}
        dispatchesNext={dispatches.body.nextCursor ?? null}
        funding={funding.body.data}
        payments={payments.body.data}
        paymentsNext={payments.body.nextCursor ?? null}
        done={DONE[query.done ?? ""] ?? null}
      />,
    );
  };

  const confirmConfig = (action: ConfigAction) => async (request: Request, id: string) =>
    kit.signedIn(request, async (api, session) => {
      const config = await findConfig(api, id);
      if (!config) return kit.refused(404, "No such auto-topup configuration in this environment", session);
      return page(<ConfigConfirmPage session={session} config={config} action={action} />);
    });

  const changeConfig = (action: ConfigAction) => async (request: Request, id: string, body: unknown) =>
    kit.signedIn(request, async (api, session) => {
      const path =
        action === "disable" ? `/dashboard/agent-dispatch/${encodeURIComponent(id)}/disable` : `/dashboard/agent-dispatch/${encodeURIComponent(id)}`;
      const answer = await kit.send(api, formOf(body), { method: action === "disable" ? "POST" : "DELETE", path });
      if (answer.status !== 200) return kit.refusedBy(answer, `The configuration could not be ${action}d`, session);
      return redirect(`${PATH}?done=${action}d`);
    });

  return app
    .get(PATH, ({ request, query }) => kit.signedIn(request, (api, session) => overview(api, session, query)))
    .get(`${PATH}/:id/disable`, ({ request, params }) => confirmConfig("disable")(request, params.id))
    .post(`${PATH}/:id/disable`, ({ request, params, body }) => changeConfig("disable")(request, params.id, body))
    .get(`${PATH}/:id/delete`, ({ request, params }) => confirmConfig("delete")(request, params.id))
    .post(`${PATH}/:id/delete`, ({ request, params, body }) => changeConfig("delete")(request, params.id, body))
    .get(`${PATH}/funding/:network/remove`, ({ request, params }) =>
      kit.signedIn(request, async (api, session) => {
        const list = await api({ method: "GET", path: "/dashboard/agent-funding" });
        if (list.status !== 200) return kit.refusedBy(list, "The funding mandates could not be read", session);
        const mandate = (list.body.data as FundingView[]).find((f) => f.network === params.network && f.status === "ACTIVE");
        if (!mandate) return kit.refused(404, "No active funding mandate on this network", session);
        return page(<FundingRemovePage session={session} mandate={mandate} />);
      }),
    )
    .post(`${PATH}/funding/:network/remove`, ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const answer = await kit.send(api, formOf(body), {
          method: "DELETE",
          path: `/dashboard/agent-funding/${encodeURIComponent(params.network)}`,
        });
        if (answer.status !== 200) return kit.refusedBy(answer, "The funding mandate could not be removed", session);
        return redirect(`${PATH}?done=funding-removed`);
      }),
    );
};
