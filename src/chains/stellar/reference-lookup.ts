/**
 * Finding the pull that used a reference. The SAC emits `transfer(from, to, asset) -> amount` for every
 * transfer_from, and getEvents filters by contract and topics on the RPC's side, so the candidates are the
 * few payer -> payee transfers of this token in the RPC's retention window (7 days by default), not every
 * transaction of the network (getTransactions would page through all of them). Each candidate's envelope
 * then says whether it is our pull with this reference in its memo.
 *
 * Failed transactions emit no events and moved nothing: a reference whose only use failed is free again.
 */
import { type rpc, xdr } from "@stellar/stellar-sdk";
import type { ChainOperation } from "../subscription-types";
import { pulledAmount } from "./pull-envelope";
import { refuse } from "./refusal";
import { addressVal } from "./sac";
import type { StellarContext } from "./soroban-context";

/** stellar-rpc scans at most this many ledgers per getEvents request (methods.LedgerScanLimit). */
const SCAN_LEDGERS = 10_000;
const PAGE = 1_000;
/** A 7-day retention is 13 windows: scanned four at a time, not one request after another. */
const PARALLEL_WINDOWS = 4;

export interface LookupOptions {
  /** what the found operation reports as its subscription token (Stellar has none of its own) */
  tokenId: string;
  /** the search must reach at least this ledger (a pull reads the operator's sequence there first) */
  throughLedger?: number;
}

export async function findByReference(ctx: StellarContext, bytes: Uint8Array, options: LookupOptions): Promise<ChainOperation | null> {
  const { latestLedger, oldestLedger } = await ctx.server.getHealth();
  if (options.throughLedger !== undefined && latestLedger < options.throughLedger) {
    refuse("rpc_unavailable", "The Soroban RPC's history is behind its own state; try again shortly");
  }
  // Newest windows first (a reference being looked up is most often a recent one), a few at a time.
  const windows: [number, number][] = [];
  for (let end = latestLedger + 1; end > oldestLedger; end -= SCAN_LEDGERS) windows.push([Math.max(oldestLedger, end - SCAN_LEDGERS), end]);
  const seen = new Set<string>();
  for (let i = 0; i < windows.length; i += PARALLEL_WINDOWS) {
    const batch = await Promise.all(windows.slice(i, i + PARALLEL_WINDOWS).map(([start, end]) => transfersIn(ctx, start, end)));
    for (const event of batch.flat()) {
      if (seen.has(event.txHash)) continue;
      seen.add(event.txHash);
      const found = await ourPull(ctx, event.txHash, bytes, options.tokenId);
      if (found) return found;
    }
  }
  return null;
}

/** payer -> payee transfer events of the token in ledgers [start, end). */
async function transfersIn(ctx: StellarContext, start: number, end: number): Promise<rpc.Api.EventResponse[]> {
  const topics = [[xdr.ScVal.scvSymbol("transfer"), addressVal(ctx.payer), addressVal(ctx.payee)].map((val) => val.toXDR("base64")).concat("*")];
  const filters: rpc.Api.EventFilter[] = [{ type: "contract", contractIds: [ctx.contractId], topics }];
  let page = await ctx.server.getEvents({ startLedger: start, endLedger: end, filters, limit: PAGE });
  const events = [...page.events];
  // A full page may have more behind it; a cursor continues past the window's end, so stop there.
  while (page.events.length === PAGE && events.every((event) => event.ledger < end)) {
    page = await ctx.server.getEvents({ cursor: page.cursor, filters, limit: PAGE });
    if (page.events.length === 0) break;
    events.push(...page.events);
  }
  return events.filter((event) => event.ledger < end);
}

async function ourPull(ctx: StellarContext, txHash: string, bytes: Uint8Array, tokenId: string): Promise<ChainOperation | null> {
  const tx = await ctx.server.getTransaction(txHash);
  if (tx.status !== "SUCCESS") return null;
  const amount = pulledAmount(ctx, tx.envelopeXdr, bytes);
  if (amount === null) return null;
  return { ok: true, txHash: txHash.toLowerCase(), tokenId, amount, blockNumber: BigInt(tx.ledger) };
}
