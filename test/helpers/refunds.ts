/**
 * A test bed for POST /invoices/{id}/refunds: an app whose chain registry names the test's own networks
 * (anvil, a litesvm-backed Solana RPC, a fake Horizon), a team with its settlement wallet there, paid
 * invoices, and a snapshot of everything a refund records, so a refusal can be shown to record nothing.
 */
import { expect } from "bun:test";
import { createTestApp, type TestApp } from "./app";
import { createTeamFixture, type TeamFixture } from "./fixtures";
import { issuedInvoice, line, payInvoice } from "./invoices";
import { createEndpoint } from "../../src/modules/webhooks/endpoints/manage";
import { OPERATOR } from "../../src/modules/teams/roles";
import type { Tenant } from "../../src/lib/tenant";

export interface RefundBed {
  t: TestApp;
  /** the CHAIN_REGISTRY_FILE the app reads (a CLI subprocess reads the same) */
  registryFile: string;
  team: TeamFixture;
  tenant: Tenant;
  /** an invoice of `total` micro-units on `network`, issued and paid `paid` (default: in full) */
  paidInvoice(network: string, total: bigint, paid?: bigint): Promise<string>;
  refund(invoiceId: string, body: unknown, options?: { token?: string; headers?: Record<string, string> }): ReturnType<TestApp["call"]>;
  /** what refunds have recorded for an invoice (and webhooks sent) */
  recorded(invoiceId: string): Promise<Recorded>;
}

export interface Recorded {
  refunds: number;
  creditNotes: number;
  amountRefunded: string;
  refundEvents: number;
  audits: number;
}

/** An app over `networks` (written to a CHAIN_REGISTRY_FILE), a team, and a webhook endpoint to count messages. */
export async function refundBed(networks: object[]): Promise<RefundBed> {
  const registryFile = `${process.cwd()}/.data/test/refund-registry-${crypto.randomUUID()}.json`;
  await Bun.write(registryFile, JSON.stringify(networks));
  const t = await createTestApp({ CHAIN_REGISTRY_FILE: registryFile, RATE_LIMIT_ENABLED: "false", CHAIN_JOB_TIMEOUT_MS: "10000" });
  const team = await createTeamFixture(t, "Refunds");
  const tenant: Tenant = { teamId: team.teamId, environment: "development" };
  await createEndpoint({ sql: t.db.sql, clock: t.clock, config: t.config }, tenant, OPERATOR, { url: "https://example.com/hook" });
  const now = () => new Date(t.clock.now());
  return {
    t,
    registryFile,
    team,
    tenant,
    async paidInvoice(network, total, paid = total) {
      const invoice = await issuedInvoice(t.db.sql, t.config.chains, tenant, now(), [line(total)], { network });
      await payInvoice(t.db.sql, t.config.chains, tenant, now(), invoice.id, paid, network);
      return invoice.id;
    },
    refund: (invoiceId, body, options = {}) =>
      t.call("POST", `/invoices/${invoiceId}/refunds`, { token: options.token ?? team.keys.secret, body, headers: options.headers }),
    async recorded(invoiceId) {
      const [row] = await t.db.sql`
        select (select count(*)::int from refunds where invoice_id = ${invoiceId}) as refunds,
               (select count(*)::int from credit_notes where invoice_id = ${invoiceId}) as credit_notes,
               (select amount_refunded::text from invoices where id = ${invoiceId}) as amount_refunded,
               (select count(*)::int from webhook_messages where team_id = ${team.teamId} and event_type = 'refund.created'
                  and body::jsonb -> 'data' -> 'refund' ->> 'invoiceId' = ${invoiceId}) as refund_events,
               (select count(*)::int from audit_log where team_id = ${team.teamId} and action = 'refund.create'
                  and details ->> 'invoiceId' = ${invoiceId}) as audits`;
      return {
        refunds: row!.refunds,
        creditNotes: row!.credit_notes,
        amountRefunded: row!.amount_refunded,
        refundEvents: row!.refund_events,
        audits: row!.audits,
      };
    },
  };
}

/** The team's settlement wallet on a network (the row the settlement-wallet routes write). */
export async function setSettlementWallet(bed: RefundBed, network: string, wallet: string): Promise<void> {
  await bed.t.db.sql`
    insert into settlement_wallets (team_id, environment, network, wallet, tokens)
    values (${bed.tenant.teamId}, ${bed.tenant.environment}, ${network}, ${wallet}, ${["USDC"]})
    on conflict (team_id, environment, network) do update set wallet = excluded.wallet`;
}

export const NOTHING_RECORDED: Recorded = { refunds: 0, creditNotes: 0, amountRefunded: "0", refundEvents: 0, audits: 0 };

/** A refusal: its status and code, the spec's `{error, code}` shape, and nothing more recorded than `before`. */
export async function expectRefused(
  bed: RefundBed,
  invoiceId: string,
  res: Awaited<ReturnType<TestApp["call"]>>,
  status: number,
  code: string,
  before: Recorded,
) {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { error: expect.any(String), code } });
  expect(await bed.recorded(invoiceId)).toEqual(before);
}
