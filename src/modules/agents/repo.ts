/** Typed access to the auto-topup tables (sql/queries/agent_*). */
import { queries, run, runCount, runOne, type Db } from "../../db/queries";
import type { PageWindow } from "../../http/pagination";
import type { Tenant } from "../../lib/tenant";
import type { ClaimedConfig, DispatchRow, DispatchStatus, FundingMandateRow, MonitoredConfig, TopupConfigRow } from "./rows";

const Q = queries([
  "agent_topup_config_upsert",
  "agent_topup_config_list_page",
  "agent_topup_config_disable",
  "agent_topup_config_delete",
  "agent_topup_config_list_enabled",
  "agent_topup_config_networks",
  "agent_topup_config_rearm",
  "agent_topup_config_disarm",
  "agent_topup_config_rearm_at",
  "agent_funding_mandate_upsert",
  "agent_funding_mandate_list",
  "agent_funding_mandate_revoke",
  "agent_funding_mandate_lock",
  "agent_funding_mandate_draw",
  "agent_topup_dispatch_spent_today",
  "agent_topup_dispatch_insert",
  "agent_topup_dispatch_settle",
  "agent_topup_dispatch_list_page",
  "agent_topup_dispatch_list_stale",
  "agent_topup_dispatch_signed",
  "agent_funding_wallet_subscribed",
  "agent_topup_config_refusals",
  "agent_topup_config_refusals_reset",
]);

export interface ConfigInput {
  id: string;
  network: string;
  token: string;
  target: string;
  threshold: bigint;
  amount: bigint;
}

export const upsertConfig = async (db: Db, t: Tenant, c: ConfigInput, now: Date) =>
  (await runOne<TopupConfigRow & { created: boolean }>(db, Q.agent_topup_config_upsert, [
    c.id,
    t.teamId,
    t.environment,
    c.network,
    c.token,
    c.target,
    c.threshold.toString(),
    c.amount.toString(),
    now,
  ]))!;

export const listConfigPage = (db: Db, t: Tenant, page: PageWindow) =>
  run<TopupConfigRow>(db, Q.agent_topup_config_list_page, [t.teamId, t.environment, page.beforeSeq, page.fetch]);

export const disableConfig = (db: Db, t: Tenant, id: string, now: Date) =>
  runOne<TopupConfigRow>(db, Q.agent_topup_config_disable, [t.teamId, t.environment, id, now]);

export const deleteConfig = (db: Db, t: Tenant, id: string) => runOne<TopupConfigRow>(db, Q.agent_topup_config_delete, [t.teamId, t.environment, id]);

export interface EnabledPage {
  network: string;
  afterId: string;
  limit: number;
  now: Date;
}

/** The monitor's read: a page of a network's enabled configurations, every tenant, after `afterId` in id order. */
export const listEnabledConfigs = (db: Db, p: EnabledPage) =>
  run<MonitoredConfig>(db, Q.agent_topup_config_list_enabled, [p.network, p.afterId, p.limit, p.now]);

export const listMonitoredNetworks = async (db: Db) => (await run<{ network: string }>(db, Q.agent_topup_config_networks)).map((r) => r.network);

export const rearmConfigs = (db: Db, ids: readonly string[]) => runCount(db, Q.agent_topup_config_rearm, [ids]);

/** A row named by its id and its tenant: every change by id also names the tenant the row was read under. */
export type RowKey = Tenant & { id: string };

export const disarmConfig = (db: Db, key: RowKey, now: Date) =>
  runOne<ClaimedConfig>(db, Q.agent_topup_config_disarm, [key.id, now, key.teamId, key.environment]);

/** A refused crossing is tried again from `at`; the refusal is counted in the configuration's run. */
export const rearmConfigAt = (db: Db, key: RowKey, at: Date) =>
  runCount(db, Q.agent_topup_config_rearm_at, [key.id, at, key.teamId, key.environment]);

/** The configuration's refusals in a row so far (0 when it is gone). */
export const refusalsInARow = async (db: Db, key: RowKey) =>
  (await runOne<{ refusals: number }>(db, Q.agent_topup_config_refusals, [key.id, key.teamId, key.environment]))?.refusals ?? 0;

export const resetRefusals = (db: Db, key: RowKey) => runCount(db, Q.agent_topup_config_refusals_reset, [key.id, key.teamId, key.environment]);

export interface FundingInput {
  id: string;
  network: string;
  token: string;
  wallet: string;
  operator: string;
  authorized: bigint;
  dailyCap: bigint;
  /** the funding wallet's signed consent, kept as given, with the total it names */
  consent: { issuedAt: string; nonce: string; signature: string; total: string };
}

export const upsertFundingMandate = async (db: Db, t: Tenant, f: FundingInput, now: Date) =>
  (await runOne<FundingMandateRow>(db, Q.agent_funding_mandate_upsert, [
    f.id,
    t.teamId,
    t.environment,
    f.network,
    f.token,
    f.wallet,
    f.operator,
    f.authorized.toString(),
    f.dailyCap.toString(),
    now,
    f.consent,
  ]))!;

export const listFundingMandates = (db: Db, t: Tenant) => run<FundingMandateRow>(db, Q.agent_funding_mandate_list, [t.teamId, t.environment]);

export const revokeFundingMandate = (db: Db, t: Tenant, network: string, now: Date) =>
  runOne<FundingMandateRow>(db, Q.agent_funding_mandate_revoke, [t.teamId, t.environment, network, now]);

export const lockFundingMandate = (db: Db, t: Tenant, network: string) =>
  runOne<FundingMandateRow>(db, Q.agent_funding_mandate_lock, [t.teamId, t.environment, network]);

/** Lowers a mandate's remaining amount by `amount` (a negative amount gives it back). */
export const drawFundingMandate = (db: Db, key: RowKey, amount: bigint, now: Date) =>
  runCount(db, Q.agent_funding_mandate_draw, [key.id, amount.toString(), now, key.teamId, key.environment]);

export const spentToday = async (db: Db, t: Tenant, network: string, dayStart: Date) =>
  BigInt((await runOne<{ spent: string }>(db, Q.agent_topup_dispatch_spent_today, [t.teamId, t.environment, network, dayStart]))!.spent);

export interface DispatchInput {
  id: string;
  team_id: string;
  environment: string;
  config_id: string;
  crossing: string;
  funding_mandate_id: string | null;
  network: string;
  token_symbol: string;
  funding_wallet: string | null;
  target_wallet: string;
  amount: string;
  balance_seen: string;
  status: DispatchStatus;
  reason: string | null;
  detail: string | null;
  reference: string;
  from_block: string | null;
  created_at: string;
}

export const insertDispatch = async (db: Db, d: DispatchInput) =>
  (await runOne<DispatchRow>(db, Q.agent_topup_dispatch_insert, [d as unknown as Record<string, unknown>]))!;

export interface Settlement {
  status: "confirmed" | "failed";
  txHash: string | null;
  reason: string | null;
  detail: string | null;
}

export const settleDispatch = (db: Db, key: RowKey, s: Settlement, now: Date) =>
  runOne<DispatchRow>(db, Q.agent_topup_dispatch_settle, [key.id, s.status, s.txHash, s.reason, s.detail, now, key.teamId, key.environment]);

export const listDispatchPage = (db: Db, t: Tenant, page: PageWindow, configId: string | null) =>
  run<DispatchRow>(db, Q.agent_topup_dispatch_list_page, [t.teamId, t.environment, page.beforeSeq, page.fetch, configId]);

export const listStaleDispatches = (db: Db, cutoff: Date, limit: number) => run<DispatchRow>(db, Q.agent_topup_dispatch_list_stale, [cutoff, limit]);

/** What the send was fixed as, recorded before it is broadcast; false when the dispatch is no longer pending. */
export const recordSigned = async (
  db: Db,
  key: RowKey,
  s: { txHash: string | null; nonce: number | null; lastValidBlockHeight: number | null },
  now: Date,
) => Boolean(await runOne(db, Q.agent_topup_dispatch_signed, [key.id, s.txHash, s.nonce, s.lastValidBlockHeight, now, key.teamId, key.environment]));

/**
 * Whether a live subscription of any team pays from this owner's token account on the network and token (Solana:
 * an account has one delegate and one delegated amount, which the subscription's mandate relies on).
 */
export const walletBacksSubscription = async (db: Db, network: string, token: string, wallet: string) =>
  Boolean(await runOne(db, Q.agent_funding_wallet_subscribed, [network, token, wallet]));
