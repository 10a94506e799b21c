/**
 * The dashboard's pages at /dashboard (docs/dashboard.md): one Elysia instance holding the shell's routes (sign
 * in and out, the environment switch, the assets) and each section's (src/ui/pages/<section>/routes.tsx), so the
 * error mapping and the same-origin check below hold for every page.
 */
import { Elysia } from "elysia";
import { fieldErrors, type ApiFetch } from "./api";
import { asset } from "./assets";
import { formOf, given, pageKit, SIGN_IN } from "./kit";
import { SignInPage } from "./pages/sign-in";
import { apiKeyPages } from "./pages/api-keys/routes";
import { featurePages } from "./pages/features/routes";
import { webhookPages } from "./pages/webhooks/routes";
import { invoicePages } from "./pages/invoices/routes";
import { planPages } from "./pages/plans/routes";
import { couponPages } from "./pages/coupons/routes";
import { creditPackPages } from "./pages/credit-packs/routes";
import { customerPages } from "./pages/customers/routes";
import { flagPages } from "./pages/flags/routes";
import { subscriptionPages } from "./pages/subscriptions/routes";
import { agentPages } from "./pages/agents/routes";
import { escrowPages } from "./pages/escrow/routes";
import { memberPages } from "./pages/members/routes";
import { invitationPages } from "./pages/invitations/routes";
import { auditLogPages } from "./pages/audit-log/routes";
import { teamPages } from "./pages/teams/routes";
import { overviewPages } from "./pages/overview/routes";
import { page, redirect, safeReturn, sameOrigin } from "./response";
import { ApiRefusal } from "./session";
import type { Logger } from "../lib/logger";
import { loggedError } from "../http/logged-error";

/** Where a signed-in browser lands: the overview, which shows each member what their roles let them read. */
const HOME = "/dashboard/overview";

export function dashboardPages(apiFetch: ApiFetch, logger: Logger) {
  const kit = pageKit(apiFetch);
  return (
    new Elysia({ name: "dashboard-pages" })
      // A page never shows an exception's text: a refusal of the API as the API put it, anything else logged.
      .onError(({ code, error, request }) => {
        if (code === "NOT_FOUND") return kit.refused(404, "There is no such page.");
        // A body the framework cannot parse is the sender's mistake, not ours: a 400, and no error in the log.
        if (code === "PARSE") return kit.refused(400, "This form could not be read.");
        if (error instanceof ApiRefusal) return kit.refused(error.status, error.message);
        logger.error("dashboard page failed", { path: new URL(request.url).pathname, error: loggedError(error).message });
        return kit.refused(500, "Something went wrong; it has been logged.");
      })
      // Every post comes from one of our own pages (./response.ts sameOrigin), before anything else is read.
      .onBeforeHandle(({ request }) => {
        if (request.method === "POST" && !sameOrigin(request)) return kit.refused(403, "This form was posted from another site.");
      })
      .get("/dashboard/assets/:file", ({ params }) => asset(params.file) ?? new Response("Not found", { status: 404 }))
      .get("/dashboard", async ({ request }) => redirect((await kit.context(request)).session ? HOME : SIGN_IN))
      .get(SIGN_IN, () => page(<SignInPage />))
      .post(SIGN_IN, async ({ request, body }) => {
        const form = formOf(body);
        const input = { email: form.email ?? "", password: form.password ?? "", teamId: given(form.teamId) };
        const answer = await kit.apiOf(request)({ method: "POST", path: "/dashboard/sign-in", body: input });
        if (answer.status === 200) {
          await kit.endSession(request);
          return redirect(HOME, answer.setCookie);
        }
        const { form: error, fields } = fieldErrors(answer, form);
        return page(<SignInPage email={form.email} teamId={form.teamId} error={error} fields={fields} />, answer.status);
      })
      .post(`${SIGN_IN}/link`, async ({ request, body }) => {
        const form = formOf(body);
        const answer = await kit.apiOf(request)({ method: "POST", path: "/dashboard/sign-in/link", body: { token: form.token ?? "" } });
        if (answer.status === 200) {
          await kit.endSession(request);
          return redirect(HOME, answer.setCookie);
        }
        const { form: error, fields } = fieldErrors(answer, form);
        return page(<SignInPage linkError={error ?? fields.token ?? null} />, answer.status);
      })
      .post("/dashboard/sign-out", async ({ request, body }) => {
        const answer = await kit.apiOf(request)({ method: "POST", path: "/dashboard/sign-out", csrf: formOf(body).csrf ?? "" });
        if (answer.status === 200 || answer.status === 401) return redirect(SIGN_IN, answer.setCookie);
        return kit.refusedBy(answer, "Sign-out failed");
      })
      .post("/dashboard/environment", ({ request, body }) =>
        kit.signedIn(request, async (api, session) => {
          const form = formOf(body);
          const answer = await kit.send(api, form, {
            method: "POST",
            path: "/dashboard/session/environment",
            body: { environment: form.environment },
          });
          if (answer.status !== 200) return kit.refusedBy(answer, "The environment could not be switched", session);
          return redirect(safeReturn(form.back));
        }),
      )
      // The sections, one line each (src/ui/pages/<section>/routes.tsx).
      .use(apiKeyPages(kit))
      .use(featurePages(kit))
      .use(webhookPages(kit))
      .use(invoicePages(kit))
      .use(planPages(kit))
      .use(couponPages(kit))
      .use(creditPackPages(kit))
      .use(customerPages(kit))
      .use(flagPages(kit))
      .use(subscriptionPages(kit))
      .use(agentPages(kit))
      .use(escrowPages(kit))
      .use(memberPages(kit))
      .use(invitationPages(kit))
      .use(auditLogPages(kit))
      .use(teamPages(kit))
      .use(overviewPages(kit))
  );
}
