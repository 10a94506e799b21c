/**
 * One top-up, in three steps (docs/agents.md#the-monitor):
 *  1. claim, in one transaction: the configuration is disarmed and its crossing counted (a second instance finds it
 *     disarmed and stops), the team's funding mandate on the network is locked, and the dispatch recorded: `failed`
 *     with the reason and `agent.topup.failed` when the mandate's remaining amount or the UTC day's cap cannot cover
 *     it (nothing is sent; it is tried again later: a daily cap refusal from the next UTC midnight, any other after a
 *     backoff, compute.ts retryAt), else `pending`, with the mandate's remaining amount lowered;
 *  2. sign through the chain workers (nothing broadcast: EVM the operator transaction with its nonce, Solana the
 *     blockhash it will carry), record that on the dispatch, and only then send, under the dispatch's reference (the
 *     one chain-side name of this top-up);
 *  3. settle, in one transaction: `confirmed` with the tx hash and `agent.topup.dispatched`; a refusal that moved
 *     nothing is `failed` with `agent.topup.failed`, gives the mandate its amount back and is tried again after a
 *     backoff; an unknown outcome stays
 *     `pending` for recovery (recover.ts), which looks the reference up on chain instead of sending again.
 */
import { OUTCOME_UNKNOWN } from "../../chains/subscription-types";
import type { SignedSend, TopupSendResult } from "../../chains/topup-types";
import type { ChainPool } from "../../chains/pool";
import type { NetworkConfig, TokenConfig } from "../../lib/networks";
import { newId } from "../../lib/ids";
import { tenantOf } from "../../lib/tenant";
import { emitEvent } from "../webhooks/emit";
import { dispatchReference, refuseDraw, retryAt, utcDayStart } from "./compute";
import type { AgentDeps } from "./configure";
import { presentDispatch } from "./present";
import {
  disarmConfig,
  drawFundingMandate,
  insertDispatch,
  lockFundingMandate,
  rearmConfigAt,
  recordSigned,
  refusalsInARow,
  resetRefusals,
  settleDispatch,
  spentToday,
} from "./repo";
import type { DispatchRow, MonitoredConfig } from "./rows";

export type DispatchDeps = AgentDeps & { pool: ChainPool; now: () => Date };

/** What the tick saw: the configuration below its threshold, with the balance and (EVM) the block it was read at. */
export interface Crossing {
  network: NetworkConfig;
  token: TokenConfig;
  config: MonitoredConfig;
  balance: bigint;
  fromBlock: bigint | null;
}

export type DispatchOutcome = "claimed_elsewhere" | "refused" | "confirmed" | "failed" | "pending";

/** Step 1: the dispatch claimed and recorded, or null when another instance claimed this crossing first. */
async function claim(deps: DispatchDeps, crossing: Crossing): Promise<{ row: DispatchRow; refused: boolean } | null> {
  const now = deps.now();
  return deps.sql.begin(async (tx) => {
    const claimed = await disarmConfig(tx, { ...tenantOf(crossing.config), id: crossing.config.id }, now);
    if (!claimed) return null;
    const tenant = tenantOf(claimed);
    const mandate = await lockFundingMandate(tx, tenant, claimed.network);
    const amount = BigInt(claimed.topup_amount);
    const spent = mandate ? await spentToday(tx, tenant, claimed.network, utcDayStart(now)) : 0n;
    const refusal = refuseDraw(mandate, spent, amount, claimed.token_symbol);
    const id = newId("atd");
    const row = await insertDispatch(tx, {
      id,
      team_id: tenant.teamId,
      environment: tenant.environment,
      config_id: claimed.id,
      crossing: claimed.crossing.toString(),
      funding_mandate_id: mandate?.id ?? null,
      network: claimed.network,
      token_symbol: claimed.token_symbol,
      funding_wallet: mandate?.funding_wallet ?? null,
      target_wallet: claimed.target_wallet,
      amount: amount.toString(),
      balance_seen: crossing.balance.toString(),
      status: refusal ? "failed" : "pending",
      reason: refusal?.reason ?? null,
      detail: refusal?.detail ?? null,
      reference: dispatchReference(id),
      from_block: crossing.fromBlock?.toString() ?? null,
      created_at: now.toISOString(),
    });
    if (refusal) {
      // Tried again later if the balance is still low: the daily cap at midnight UTC, anything else after a backoff.
      const config = { ...tenant, id: claimed.id };
      await rearmConfigAt(tx, config, retryAt(now, refusal.reason, await refusalsInARow(tx, config)));
      await emitEvent({ tx, tenant }, "agent.topup.failed", { dispatch: presentDispatch(deps.chains, row) }, { at: now });
    } else await drawFundingMandate(tx, { ...tenant, id: mandate!.id }, amount, now);
    return { row, refused: refusal !== null };
  });
}

/** Step 3 (also recovery's): records what the send came to; null when the dispatch was settled already. */
export async function settle(deps: DispatchDeps, row: DispatchRow, result: TopupSendResult | { ok: false; reason: "not_sent"; detail: string }) {
  const now = deps.now();
  return deps.sql.begin(async (tx) => {
    const tenant = tenantOf(row);
    const settled = result.ok
      ? await settleDispatch(tx, { ...tenant, id: row.id }, { status: "confirmed", txHash: result.txHash, reason: null, detail: null }, now)
      : await settleDispatch(tx, { ...tenant, id: row.id }, { status: "failed", txHash: null, reason: result.reason, detail: result.detail }, now);
    if (!settled) return null;
    if (!result.ok && row.funding_mandate_id) await drawFundingMandate(tx, { ...tenant, id: row.funding_mandate_id }, -BigInt(row.amount), now);
    const config = { ...tenant, id: row.config_id };
    if (result.ok) await resetRefusals(tx, config);
    else await rearmConfigAt(tx, config, retryAt(now, result.reason, await refusalsInARow(tx, config)));
    await emitEvent(
      { tx, tenant },
      result.ok ? "agent.topup.dispatched" : "agent.topup.failed",
      { dispatch: presentDispatch(deps.chains, settled) },
      { at: now },
    );
    return settled;
  });
}

/** The send of a claimed dispatch, as the chain workers take it. */
export const sendRequest = (crossing: Pick<Crossing, "network" | "token">, row: DispatchRow) => ({
  network: crossing.network,
  token: crossing.token,
  funder: row.funding_wallet!,
  target: row.target_wallet,
  amount: BigInt(row.amount),
  reference: row.reference,
  fromBlock: row.from_block === null ? undefined : BigInt(row.from_block),
  signed: signedOf(row),
});

/** What was recorded before the broadcast, as a lookup takes it; undefined when nothing was (nothing was broadcast). */
function signedOf(row: DispatchRow): SignedSend | undefined {
  const nonce = row.operator_nonce ?? null;
  const height = row.last_valid_height ?? null;
  if (nonce === null && height === null) return undefined;
  return {
    txHash: row.tx_hash,
    nonce: nonce === null ? null : Number(nonce),
    lastValidBlockHeight: height === null ? null : Number(height),
    envelope: "",
  };
}

/** One crossing, claimed, signed and recorded, sent and settled. */
export async function dispatchTopup(deps: DispatchDeps, crossing: Crossing): Promise<DispatchOutcome> {
  const claimed = await claim(deps, crossing);
  if (!claimed) return "claimed_elsewhere";
  if (claimed.refused) return "refused";
  const request = sendRequest(crossing, claimed.row);
  const signed = await deps.pool.topup({ op: "sign", request });
  if (!signed.ok) {
    // Signing broadcasts nothing: whatever it answered (a timeout too), nothing of this dispatch can land.
    const result = OUTCOME_UNKNOWN.has(signed.reason) ? { ok: false as const, reason: "not_sent" as const, detail: signed.detail } : signed;
    return outcomeOf(await settle(deps, claimed.row, result));
  }
  // What tells recovery whether the send can still land is recorded before it can exist on chain.
  const recorded = await recordSigned(deps.sql, { ...tenantOf(claimed.row), id: claimed.row.id }, signed, deps.now()).catch(() => false);
  if (!recorded) {
    // Not recorded (the database failed, or recovery settled the dispatch meanwhile): never broadcast it.
    await deps.pool.topup({ op: "release", request: { ...request, signed } });
    return "pending";
  }
  const result = await deps.pool.topup({ op: "send", request: { ...request, signed } });
  if (!result.ok && OUTCOME_UNKNOWN.has(result.reason)) return "pending"; // recovery looks the reference up
  return outcomeOf(await settle(deps, claimed.row, result));
}

const outcomeOf = (settled: DispatchRow | null): DispatchOutcome => (settled?.status === "confirmed" ? "confirmed" : settled ? "failed" : "pending");
