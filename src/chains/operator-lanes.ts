/**
 * Whether a network's subscription operator can have several pulls in flight. A Stellar account applies one
 * transaction per sequence number, and the network queues one transaction per source account per ledger, so
 * the operator's pulls land one after another, about one per ledger (~5 s). Sent all at once (the renewal
 * jobs run JOB_CONCURRENCY at a time), they would only wait in line inside the chain worker, every one
 * under the same CHAIN_JOB_TIMEOUT_MS deadline, and those at the back would time out with their outcome
 * unknown. EVM nonces pipeline (the worker hands them out) and Solana transactions have no sequence: their
 * pulls run at once.
 */
import type { NetworkConfig } from "./types";

/** The job queue lane in which the network's operator pulls run one at a time; null when they need none. */
export const operatorLane = (network: NetworkConfig): string | null => (network.family === "stellar" ? `chain-operator:${network.id}` : null);
