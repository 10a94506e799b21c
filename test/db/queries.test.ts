/** Every statement in sql/queries parses and plans against the migrated schema, and tenant queries filter on both keys. */
import { afterAll, describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { cloneTestDatabase } from "../helpers/db";

const db = await cloneTestDatabase();
afterAll(() => db.drop());

const files = [...new Glob("*.sql").scanSync("sql/queries")].sort();
// Statements that legitimately span tenants: lookups by a secret's hash (the hash names the tenant),
// revocation and entitlement-change notices (their payload names the tenant), and teams themselves.
// meter_settle.sql passes each request's tenant to meter_settle(), whose every statement joins on team_id and environment.
// Settlement: the sweeper's work list spans every tenant (each row carries its own), and the replay guard
// looks a transaction up across every team, since one transaction proves one payment anywhere.
// The idempotency-key and refused-event prunes delete old rows of every tenant by age (each row carries its own tenant).
// The job queue is shared machinery: a job's payload names its tenant; heartbeats and recovery have none.
const CROSS_TENANT = new Set([
  "checkout_session_list_due.sql",
  "idempotency_key_prune_expired.sql",
  "payment_find_by_tx.sql",
  "meter_settle.sql",
  "api_key_find_by_hash.sql",
  "dashboard_session_find_by_hash.sql",
  "credential_notify_revoked.sql",
  "entitlement_change_notify.sql",
  "team_insert.sql",
  "team_find_by_id.sql",
  "event_delete_refused_before.sql",
  // Dashboard sign-in: operators are global accounts; an operator's memberships span teams; invitations and
  // sign-in links are spent by their token's hash (which names the team); failed sign-ins count per account
  // and client address, not per tenant.
  "operator_insert.sql",
  "operator_find_by_email.sql",
  "operator_find_by_id.sql",
  "team_member_find_for_sign_in.sql",
  "team_member_list_by_operator.sql",
  "team_invitation_accept.sql",
  "sign_in_link_use.sql",
  "sign_in_failure_count.sql",
  "sign_in_failure_insert.sql",
  "sign_in_failure_clear.sql",
  "sign_in_failure_release.sql",
  "sign_in_scope_lock.sql",
  "job_enqueue.sql",
  "job_enqueue_many.sql",
  "job_unlock_stale_workers.sql",
  "job_worker_heartbeat_delete.sql",
  "job_worker_heartbeat_upsert.sql",
  // Invoices: the overdue job's scan spans every tenant (each row carries its own).
  "invoice_list_overdue.sql",
  // Settlement wallets: a wallet receives for one tenant, so a payment link's recipient is checked against every team's.
  "settlement_wallet_owner.sql",
  // Invoice payments: the checkout backfill's list of tenants to backfill spans every team (each
  // tenant is then backfilled with tenant-filtered statements).
  "checkout_session_uninvoiced_tenants.sql",
  // One on-chain transaction proves one thing anywhere (src/modules/transaction-claims/repo.ts): its lock and the look-up of what it
  // proved (a payment or a refund) span every team, as payment_find_by_tx does.
  "chain_transaction_lock.sql",
  "chain_transaction_use.sql",
  // Subscriptions: the renewal, reconciliation and mandate-expiry jobs scan every tenant (each row
  // carries its own; the work per row runs with tenant-filtered statements).
  "subscription_list_due.sql",
  "subscription_list_incomplete.sql",
  "subscription_charge_list_stale.sql",
  "mandate_list_expiring.sql",
  // Escrow: the capture and reconcile jobs claim due rows of every tenant (each row carries its own; every change
  // by id then names the row's tenant). A reservation's key on chain is (contract, payee, nonce) and a payee is one
  // team's settlement wallet, so the look-up by that key spans teams: it is how the public dispute route, which
  // has no tenant, finds the payer's reservation.
  "escrow_reservation_claim_due.sql",
  "escrow_reservation_claim_stale.sql",
  "escrow_reservation_find_by_nonce.sql",
  // Auto-topup: the monitor reads every tenant's enabled configurations of a network, re-arms those it saw back at
  // their threshold in one statement, and recovery lists every tenant's stale dispatches (each row carries its own
  // tenant; every change by id then names it). A Solana token account has one delegate, so a funding wallet is
  // refused while a live subscription of any team pays from it.
  "agent_topup_config_list_enabled.sql",
  "agent_topup_config_networks.sql",
  "agent_topup_config_rearm.sql",
  "agent_topup_dispatch_list_stale.sql",
  "agent_funding_wallet_subscribed.sql",
  // x402: one EIP-3009 authorization pays once anywhere, so its claims are found by payer and nonce across every
  // team (the caller then matches tenant and request); the reconcile job takes over every tenant's stale claims.
  "x402_payment_find.sql",
  "x402_payment_claim_stale.sql",
]);

// Team-level statements: memberships, invitations and sign-in links belong to a team, across both of its
// environments (a member works in either), so they filter on team_id alone.
const TEAM_LEVEL = new Set([
  "team_member_insert.sql",
  "team_member_list_by_team.sql",
  "team_member_lock_active.sql",
  "team_member_set_roles.sql",
  "team_member_remove.sql",
  "team_invitation_insert.sql",
  "team_invitation_list_pending.sql",
  "sign_in_link_insert.sql",
  "dashboard_session_revoke_by_member.sql",
]);

// Repository modules load their statements with `queries([...names])` and run them as `Q.<name>`.
const srcText = (await Promise.all([...new Glob("src/**/*.ts").scanSync(".")].map((f) => Bun.file(f).text()))).join("\n");

describe("sql/queries", () => {
  for (const file of files) {
    test(`${file} is described by PostgreSQL`, async () => {
      const text = await Bun.file(`sql/queries/${file}`).text();
      expect(text.startsWith("--")).toBe(true); // header comment naming $n and the row count
      const described = await db.sql.unsafe(text).describe();
      expect(described.string).toBe(text);
    });
    test(`${file} is run by src`, () => {
      expect(srcText).toMatch(new RegExp(`\\bQ\\.${file.slice(0, -4)}\\b`));
    });
    if (TEAM_LEVEL.has(file)) {
      test(`${file} filters on team_id`, async () => {
        const text = (await Bun.file(`sql/queries/${file}`).text()).replace(/^--.*$/gm, "");
        expect(text).toContain("team_id");
        if (/\bwhere\b/i.test(text)) expect(text).toMatch(/team_id\s*=/);
      });
    } else if (!CROSS_TENANT.has(file)) {
      test(`${file} filters on team_id and environment`, async () => {
        const text = (await Bun.file(`sql/queries/${file}`).text()).replace(/^--.*$/gm, "");
        expect(text).toContain("team_id");
        expect(text).toContain("environment");
        // A statement that finds existing rows compares both keys: `environment in (every environment)` is no filter.
        if (/\bwhere\b/i.test(text)) {
          expect(text).toMatch(/team_id\s*=/);
          expect(text).toMatch(/environment\s*=/);
        }
      });
    }
  }
});
