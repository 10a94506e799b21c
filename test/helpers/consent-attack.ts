/**
 * The attack of a customer making another customer's wallet pay, run the same way on each chain family: payer wallet
 * W consents to and activates company "globex"; then an embed token of another company of the same team, "initech",
 * activates with paymentAccount W, with no consent, with W's consent for globex, and W's globex consent is replayed.
 * Every attempt is a 4xx in the spec's shapes and nothing moves on chain. Along the way (activation, a renewal, a
 * plan change pulled through the mandate) each mandate's remainingAmount is what the chain still allows for it.
 */
import { expect } from "bun:test";
import { createPlanRecord } from "../../src/modules/catalog/plans/edit";
import { createDashboardSession } from "../../src/modules/teams/automation-session";
import { dashboardCookie } from "./fixtures";
import type { PayerConsent } from "../../src/modules/subscriptions/activation/payer-consent";
import type { MessageSigner } from "./payer-consent";
import { DAY_MS, type subscriptionService } from "./subscription-service";

export interface AttackBed {
  service: Awaited<ReturnType<typeof subscriptionService>>;
  /** the wallet W */
  payer: MessageSigner;
  /** W's fresh consent to this team's "Pro" for `company` (and "Biz" terms where the family's consent names amounts) */
  consent(company: string): Promise<PayerConsent>;
  /** token units held by `address` */
  balance(address: string): Promise<bigint>;
  /** what the chain still allows the company's subscription to pull in total */
  chainRemaining(company: string): Promise<bigint>;
  /** moves the chain's clock and the service's together */
  elapse(ms: number): Promise<void>;
  /** the network's registry id */
  network: string;
  /** Solana and Stellar: one allowance per payer account, so one live subscription per account */
  sharedAccount: boolean;
}

export async function runConsentAttack(bed: AttackBed): Promise<void> {
  const { service, payer } = bed;
  const { t, team } = service;
  const tenant = { teamId: team.teamId, environment: "development" as const };
  const actor = { kind: "test", id: "test", requestId: null };
  const biz = await createPlanRecord({ sql: t.db.sql, chains: t.config.chains, now: () => new Date(t.clock.now()) }, tenant, actor, {
    name: "Biz",
    prices: [{ billingPeriod: "monthly", amount: "30", currency: "USDC" }],
    onchainPlanIds: { [bed.network]: "biz" },
  });
  const inStep = async (company: string) => {
    const mandate = await service.mandate(company);
    expect({ company, remaining: BigInt(mandate.remaining_amount) }).toEqual({ company, remaining: await bed.chainRemaining(company) });
  };

  // W consents to globex and activates it.
  const globexConsent = await bed.consent("globex");
  const activated = await service.activate(payer, "globex-1", "globex", { consent: globexConsent });
  expect(activated.status).toBe(200);
  expect(activated.body.data.mandateId).toBe((await service.mandate("globex")).id);
  await inStep("globex");

  // An embed token of initech, another company of the same team, names W.
  const minted = await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: "initech" } } });
  expect(minted.status).toBe(201);
  const asInitech = (consent: PayerConsent | null, key: string) =>
    t.call("POST", "/subscriptions/activate", {
      token: minted.body.token,
      headers: { "Idempotency-Key": key },
      body: { planId: "pro", paymentAccount: payer.address, company: { id: "initech" }, ...(consent ? { payerConsent: consent } : {}) },
    });
  const chainState = async () => ({
    payer: await bed.balance(payer.address),
    payee: await bed.balance(service.payee),
    globex: await bed.chainRemaining("globex"),
  });
  const before = await chainState();
  const refusals = [
    ["no consent", await asInitech(null, "steal-1"), "body.payerConsent"],
    ["the consent globex used", await asInitech(globexConsent, "steal-2"), "body.payerConsent.signature"],
    ["a fresh consent of W for globex", await asInitech(await bed.consent("globex"), "steal-3"), "body.payerConsent.signature"],
  ] as const;
  for (const [what, res, field] of refusals)
    expect({ what, status: res.status, fields: Object.keys(res.body.details ?? {}) }).toEqual({ what, status: 400, fields: [field] });
  if (bed.sharedAccount) {
    // W's own consent for initech: the account already pays globex, and its one allowance cannot pay two.
    const res = await asInitech(await bed.consent("initech"), "steal-4");
    expect(res.body).toEqual({ error: expect.any(String), code: "payment_account_in_use" });
  }
  // A replayed consent, under another Idempotency-Key: refused as one.
  const replayed = await service.activate(payer, "globex-replay", "globex", { consent: globexConsent });
  expect(replayed.body).toEqual({ error: expect.any(String), code: "consent_used" });
  expect(await chainState()).toEqual(before);
  expect(await service.subscription("initech")).toBeUndefined();

  // A renewal, then a plan change pulled through the mandate: the mandate and the chain agree at each step.
  await bed.elapse(31 * DAY_MS);
  expect((await service.runRenewals()).failed).toEqual([]);
  expect((await service.subscription("globex")).period_index).toBe(1);
  await inStep("globex");
  await bed.elapse(10 * DAY_MS);
  const payeeBefore = await bed.balance(service.payee);
  // A session signed in now (the fixture's has expired on the moved clock).
  const admin = await createDashboardSession(t.db.sql, { ...tenant, userEmail: "admin@consent.test", roles: ["admin"] }, t.clock.now());
  const changed = await t.call("POST", "/dashboard/companies/globex/plan", {
    ...dashboardCookie(admin.session, admin.csrfToken),
    body: { planId: "biz" },
  });
  expect(changed.status).toBe(200);
  expect((await service.subscription("globex")).plan_id).toBe(biz.id);
  expect(await bed.balance(service.payee)).toBeGreaterThan(payeeBefore); // the upgrade's net was pulled through the mandate
  await inStep("globex");
}
