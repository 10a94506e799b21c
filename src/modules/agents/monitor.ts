/**
 * The monitor's tick on one network (docs/agents.md#the-monitor): every enabled configuration's target balance is
 * read in one batched call per page and token (EVM: Multicall3 `aggregate3`, chunked; Solana: `getMultipleAccounts`
 * per 100), never one RPC per wallet; configurations back at or above their threshold are armed again in one
 * statement, and each armed one below it is dispatched (dispatch.ts), a few at a time.
 */
import { findToken, type NetworkConfig, type TokenConfig } from "../../lib/networks";
import { crossingAction } from "./compute";
import { dispatchTopup, type DispatchDeps, type DispatchOutcome } from "./dispatch";
import { listEnabledConfigs, rearmConfigs } from "./repo";
import type { MonitoredConfig } from "./rows";
import { TOPUP_FAMILIES } from "./targets";

export type MonitorDeps = DispatchDeps & {
  /** EVM balanceOf calls per Multicall3 eth_call (AGENT_TOPUP_BATCH_SIZE) */
  batchSize: number;
};

/** Configurations read per database page (and per balance read). */
const PAGE = 5_000;
/** Top-ups of one tick sent at once: EVM nonces pipeline in the key's worker, Solana sends are independent. */
const SEND_CONCURRENCY = 8;

export interface TickReport {
  configs: number;
  /** JSON-RPC requests the balance reads took */
  balanceRequests: number;
  /** balance reads that failed (the configurations they covered wait for the next tick) */
  failedReads: number;
  rearmed: number;
  outcomes: Partial<Record<DispatchOutcome, number>>;
}

export async function tickNetwork(deps: MonitorDeps, networkId: string): Promise<TickReport> {
  const report: TickReport = { configs: 0, balanceRequests: 0, failedReads: 0, rearmed: 0, outcomes: {} };
  const network = deps.chains.get(networkId);
  if (!network || !(TOPUP_FAMILIES as readonly string[]).includes(network.family)) return report;
  for (let after = ""; ; ) {
    const page = await listEnabledConfigs(deps.sql, { network: network.id, afterId: after, limit: PAGE, now: deps.now() });
    report.configs += page.length;
    for (const [symbol, configs] of byToken(page)) {
      const token = findToken(network, symbol);
      if (token) await tickToken(deps, { network, token, configs }, report);
    }
    if (page.length < PAGE) return report;
    after = page.at(-1)!.id;
  }
}

function byToken(configs: MonitoredConfig[]): Map<string, MonitoredConfig[]> {
  const groups = new Map<string, MonitoredConfig[]>();
  for (const c of configs) {
    const group = groups.get(c.token_symbol);
    if (group) group.push(c);
    else groups.set(c.token_symbol, [c]);
  }
  return groups;
}

async function tickToken(deps: MonitorDeps, batch: { network: NetworkConfig; token: TokenConfig; configs: MonitoredConfig[] }, report: TickReport) {
  const { network, token, configs } = batch;
  const read = await deps.pool.topup({
    op: "balances",
    request: { network, token, wallets: configs.map((c) => c.target_wallet), chunkSize: deps.batchSize },
  });
  if (!read.ok) {
    report.failedReads++;
    return;
  }
  report.balanceRequests += read.requests;
  const rearm: string[] = [];
  const crossings = configs.flatMap((config, i) => {
    const balance = read.balances[i];
    if (balance === null || balance === undefined) return [];
    const action = crossingAction(balance, BigInt(config.min_balance_threshold), config.armed);
    if (action === "rearm") rearm.push(config.id);
    return action === "dispatch" ? [{ network, token, config, balance, fromBlock: read.blockNumber }] : [];
  });
  if (rearm.length) report.rearmed += await rearmConfigs(deps.sql, rearm);
  for (let start = 0; start < crossings.length; start += SEND_CONCURRENCY) {
    const outcomes = await Promise.all(crossings.slice(start, start + SEND_CONCURRENCY).map((c) => dispatchTopup(deps, c)));
    for (const outcome of outcomes) report.outcomes[outcome] = (report.outcomes[outcome] ?? 0) + 1;
  }
}
