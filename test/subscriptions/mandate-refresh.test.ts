/**
 * A lapsed mandate is revived only by a fresh approval on chain that names the payee (src/modules/subscriptions/mandates/refresh.ts):
 * on EVM (test/subscriptions/renewal-recovery.test.ts). On Solana the delegate approval names only our
 * operator, shared by every team, so no approval revives a Solana mandate: one the payer gave for another
 * team's subscription would otherwise pay this one. The remainder that was too small stays too small, each
 * dunning retry leaves the mandate as it expired (no audit entry claiming the payer approved again, no second
 * `mandate.expired`), and a larger approval changes nothing either.
 */
import { expect, test } from "bun:test";
import { cancelSubscription } from "../../src/modules/subscriptions/cancellation/manage";
import { renewSubscription } from "../../src/modules/subscriptions/renewal/renew";
import { solanaSigner } from "../helpers/payer-consent";
import { usdc } from "../helpers/chains/solana-subscriptions";
import { DAY_MS } from "../helpers/subscription-service";
import { solanaSubscriptionService } from "../helpers/subscriptions";

const { chain, service, t, elapse } = await solanaSubscriptionService({ balance: usdc(100), approved: usdc(15) });

const audits = async (action: string) =>
  (await t.db.sql`select id from audit_log where team_id = ${service.team.teamId} and action = ${action}`).length;

test("on Solana no approval revives a lapsed mandate: the remainder that was too small, nor a larger approval (it names no team)", async () => {
  expect((await service.activate(solanaSigner(chain.payer), "activate")).status).toBe(200);
  expect((await service.mandate()).remaining_amount).toBe(String(usdc(5)));

  elapse(31 * DAY_MS);
  expect((await service.runRenewals()).failed).toEqual([]);
  expect(await service.mandate()).toMatchObject({ status: "EXPIRED", expiry_reason: "remaining_below_next_charge" });
  expect((await service.subscription()).dunning_attempts).toBe(1);

  // The next dunning retry: the chain still shows the 5 USDC left, nothing approved since.
  elapse(2 * DAY_MS);
  expect((await service.runRenewals()).failed).toEqual([]);
  expect((await service.subscription()).dunning_attempts).toBe(2);
  expect(await audits("mandate.reapproved")).toBe(0);
  // Untouched since it expired: not revived and expired again.
  const mandate = await service.mandate();
  expect(mandate.status).toBe("EXPIRED");
  expect(mandate.updated_at.getTime()).toBeLessThan(t.clock.now());

  // The payer approves the operator for more (for any team: the approval names none): still nothing revives,
  // and nothing more is pulled; the payer subscribes again, with a consent naming the payee.
  chain.approve(chain.payer, chain.operator.publicKey, usdc(50));
  elapse(5 * DAY_MS);
  expect((await service.runRenewals()).failed).toEqual([]);
  expect(await audits("mandate.reapproved")).toBe(0);
  expect((await service.mandate()).status).toBe("EXPIRED");
  expect(chain.balance(chain.payee.publicKey)).toBe(usdc(10));
});

test("a canceled subscription's expired mandate stays EXPIRED whatever the chain shows: a renewal job that runs after the cancel revives nothing", async () => {
  const payer = chain.newPayer(usdc(100), usdc(15));
  expect((await service.activate(solanaSigner(payer), "activate-beta", "beta")).status).toBe(200);
  elapse(31 * DAY_MS);
  expect((await service.runRenewals()).failed).toEqual([]);
  expect((await service.mandate("beta")).status).toBe("EXPIRED");
  const sub = await service.subscription("beta");
  const tenant = { teamId: service.team.teamId, environment: "development" as const };
  const actor = { kind: "test", id: "test", requestId: null };
  await cancelSubscription(
    { deps: t.deps.subscriptions, tenant, actor, now: new Date(t.clock.now()) },
    { companyId: sub.company_id },
    { atPeriodEnd: false, reason: "test" },
  );
  expect((await service.subscription("beta")).status).toBe("CANCELED");

  // The payer approves the operator again (for anything: on Solana the approval names no team); a renewal job
  // queued before the cancel runs now.
  chain.approve(payer, chain.operator.publicKey, usdc(50));
  expect(await renewSubscription(t.deps.subscriptions, tenant, sub.id, new Date(t.clock.now()))).toBe("skipped");
  expect((await service.mandate("beta")).status).toBe("EXPIRED");
});
