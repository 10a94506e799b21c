/** The escrow section's routes: reservations (status filter, cursor pages), a reservation, the resolution after a confirmation, zkTLS proofs. */
import { readAll, type Api } from "../../api";
import { formOf, type PageKit, type Section } from "../../kit";
import { page, redirect } from "../../response";
import type { PageSession } from "../../session";
import { EscrowPage, PATH, ProofsPage, ReservationPage, ResolvePage, STATUSES, type Outcome, type ReservationView } from "./page";

const DONE: Record<string, string> = {
  refunded: "Dispute resolved: the funds went back to the payer.",
  captured: "Dispute resolved: the funds went to the payee.",
};
const isOutcome = (v: string | undefined): v is Outcome => v === "refunded" || v === "captured";

export const escrowPages: Section = (kit: PageKit) => (app) => {
  const reservation = async (api: Api, session: PageSession, id: string) => {
    const answer = await api({ method: "GET", path: `/escrow/reservations/${encodeURIComponent(id)}` });
    if (answer.status !== 200) return { refusal: await kit.refusedBy(answer, "The reservation could not be read", session) };
    return { r: answer.body.reservation as ReservationView };
  };
  return app
    .get(PATH, ({ request, query }) =>
      kit.signedIn(request, async (api, session) => {
        // An unknown status is passed on: the API's 400 says what it takes.
        const status = query.status || undefined;
        const params = [
          status ? `status=${encodeURIComponent(status)}` : "",
          query.cursor ? `cursor=${encodeURIComponent(query.cursor)}` : "",
        ].filter(Boolean);
        const [list, disputes] = await Promise.all([
          api({ method: "GET", path: `/escrow/reservations${params.length ? `?${params.join("&")}` : ""}` }),
          status || query.cursor ? null : readAll(api, "/escrow/reservations?status=disputed"),
        ]);
        if (list.status !== 200) return kit.refusedBy(list, "The reservations could not be read", session);
        if (disputes && disputes.status !== 200) return kit.refusedBy(disputes, "The disputes could not be read", session);
        return page(
          <EscrowPage
            session={session}
            status={STATUSES.find((s) => s === status)}
            reservations={list.body.data}
            nextCursor={list.body.nextCursor ?? null}
            disputes={disputes ? disputes.body.data : null}
            done={null}
          />,
        );
      }),
    )
    .get(`${PATH}/proofs`, ({ request, query }) =>
      kit.signedIn(request, async (api, session) => {
        const list = await api({ method: "GET", path: `/proofs/zktls${query.cursor ? `?cursor=${encodeURIComponent(query.cursor)}` : ""}` });
        if (list.status !== 200) return kit.refusedBy(list, "The proofs could not be read", session);
        return page(<ProofsPage session={session} proofs={list.body.data} nextCursor={list.body.nextCursor ?? null} />);
      }),
    )
    .get(`${PATH}/:id`, ({ request, params, query }) =>
      kit.signedIn(request, async (api, session) => {
        const { r, refusal } = await reservation(api, session, params.id);
        if (!r) return refusal;
        return page(<ReservationPage session={session} r={r} done={DONE[query.done ?? ""] ?? null} />);
      }),
    )
    .get(`${PATH}/:id/resolve`, ({ request, params, query }) =>
      kit.signedIn(request, async (api, session) => {
        // The confirmation only for a session the API would let resolve (the POST is refused by the API all the same).
        if (!session.may("POST", "/escrow/reservations/{id}/resolve")) return kit.refused(403, "Your role may not resolve disputes.", session);
        if (!isOutcome(query.outcome)) return kit.refused(400, "Choose refunded or captured.", session);
        const { r, refusal } = await reservation(api, session, params.id);
        if (!r) return refusal;
        return page(<ResolvePage session={session} r={r} outcome={query.outcome} />);
      }),
    )
    .post(`${PATH}/:id/resolve`, ({ request, params, body }) =>
      kit.signedIn(request, async (api, session) => {
        const form = formOf(body);
        const answer = await kit.send(api, form, {
          method: "POST",
          path: `/escrow/reservations/${encodeURIComponent(params.id)}/resolve`,
          body: { outcome: form.outcome },
        });
        if (answer.status === 200) return redirect(`${PATH}/${encodeURIComponent(params.id)}?done=${answer.body.reservation.status}`);
        // A refusal of the resolution itself (not disputed any more, in flight): the confirmation again with the API's message.
        const { r } = await reservation(api, session, params.id);
        if (answer.status === 403 || !r || !isOutcome(form.outcome)) return kit.refusedBy(answer, "The dispute could not be resolved", session);
        const message = typeof answer.body?.error === "string" ? answer.body.error : `The service answered ${answer.status}`;
        return page(<ResolvePage session={session} r={r} outcome={form.outcome} error={message} />, answer.status);
      }),
    );
};
