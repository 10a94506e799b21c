/**
 * Reads of the escrow contract: a reservation, and the transaction of its last change of status (the contract
 * records the block, so one block's logs are read: no log scan).
 */
import type { Hex, PublicClient } from "viem";
import { ESCROW_CHAIN_STATUSES, type ChainReservation, type EscrowChainStatus } from "../escrow-types";
import { ESCROW_ABI } from "./escrow-contract";

/** The event each status is entered with. */
const EVENT = { authorized: "Reserved", captured: "Captured", disputed: "Disputed", refunded: "Refunded" } as const;

export async function readReservation(client: PublicClient, contract: Hex, key: Hex): Promise<ChainReservation> {
  const [payer, windowEnd, status, payee, changedAt, token, amount, deliveryProvider] = await client.readContract({
    address: contract,
    abi: ESCROW_ABI,
    functionName: "reservations",
    args: [key],
  });
  const known = ESCROW_CHAIN_STATUSES[status] ?? "none";
  return { payer, payee, token, amount, windowEnd: Number(windowEnd), status: known, changedAt, deliveryProvider };
}

/** The transaction that moved the reservation of `key` into its current status; null when not found. */
export async function transitionTx(client: PublicClient, contract: Hex, key: Hex, r: ChainReservation): Promise<Hex | null> {
  if (r.status === "none" || r.changedAt === 0n) return null;
  const logs = await client.getContractEvents({
    address: contract,
    abi: ESCROW_ABI,
    eventName: EVENT[r.status as Exclude<EscrowChainStatus, "none">],
    args: { key },
    fromBlock: r.changedAt,
    toBlock: r.changedAt,
  });
  return logs.at(-1)?.transactionHash ?? null;
}
