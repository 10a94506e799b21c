/**
 * Entry of one chain worker (a Bun Worker). It runs many jobs at once: they wait on the network, not
 * the CPU. It never answers with an exception: adapters return verdicts, and anything else that goes
 * wrong still becomes a verdict for that job.
 */
/// <reference lib="webworker" />
import {
  ADAPTERS,
  ESCROW_ADAPTER,
  SUBSCRIPTION_ADAPTERS,
  TOPUP_ADAPTERS,
  X402_ADAPTER,
  type JobAnswer,
  type JobRequest,
  type JobResponse,
} from "./jobs";
import type { TopupOperation } from "./topup-types";
import { refuseOperation } from "./subscription-types";
import { refuseEscrow } from "./escrow-types";
import { refuse, type ChainFamily } from "./types";
import { refuseX402 } from "./x402-types";

declare const self: Worker;

const loaded = new Map<string, Promise<unknown>>();

/** One adapter per family and kind, imported once; a failed import is tried again by the next job. */
function load<T>(key: string, importer: () => Promise<T>): Promise<T> {
  let adapter = loaded.get(key) as Promise<T> | undefined;
  if (!adapter) {
    adapter = importer();
    loaded.set(key, adapter);
    adapter.catch(() => loaded.delete(key));
  }
  return adapter;
}

async function handle(job: JobRequest): Promise<JobAnswer> {
  if (job.kind === "verifyPayment") {
    const family = job.expectation.network.family;
    return (await load(`verify:${family}`, ADAPTERS[family])).verifyPayment(job.expectation);
  }
  if (job.kind === "escrow") {
    const escrow = await load("escrow:evm", ESCROW_ADAPTER);
    const { operation } = job;
    if (operation.op === "read") return escrow.read(operation.request);
    if (operation.op === "verifyConsent") return escrow.verifyConsent(operation.request);
    return escrow.send(operation.request);
  }
  if (job.kind === "topup") return topup(job.family, job.operation);
  if (job.kind === "x402") {
    const adapter = await load("x402:evm", X402_ADAPTER);
    const { op, request } = job.operation;
    return op === "check" ? adapter.check(request) : op === "settle" ? adapter.settle(request) : adapter.find(request);
  }
  const family: ChainFamily = job.family;
  const adapter = await load(`subscription:${family}`, SUBSCRIPTION_ADAPTERS[family]);
  const { operation } = job;
  switch (operation.op) {
    case "readAutopay":
      return adapter.readAutopay(operation.request);
    case "activate":
      return adapter.activate(operation.request);
    case "charge":
      return adapter.charge(operation.request);
    case "revoke":
      return adapter.revoke(operation.request);
    case "lookup":
      return adapter.lookup(operation.request);
    case "verifyConsent":
      return adapter.verifyConsent
        ? adapter.verifyConsent(operation.request)
        : refuseOperation("not_configured", `${family} subscriptions take no EIP-712 consent`);
  }
}

async function topup(family: ChainFamily, operation: TopupOperation): Promise<JobAnswer> {
  const importer = TOPUP_ADAPTERS[family];
  if (!importer) return refuseOperation("not_configured", `Auto-topup is not available on ${family} networks`);
  const adapter = await load(`topup:${family}`, importer);
  switch (operation.op) {
    case "balances":
      return adapter.balances(operation.request);
    case "readFunding":
      return adapter.readFunding(operation.request);
    case "send":
      return adapter.send(operation.request);
    case "lookup":
      return adapter.lookup(operation.request);
    case "sign":
      return adapter.sign(operation.request);
    case "release":
      return adapter.release(operation.request);
  }
}

self.onmessage = async (event: MessageEvent<JobRequest>) => {
  const job = event.data;
  let verdict: JobAnswer;
  try {
    verdict = await handle(job);
  } catch (error) {
    const name = error instanceof Error ? error.name : "Error";
    verdict =
      job.kind === "verifyPayment"
        ? refuse("rpc_unavailable", `Verification failed unexpectedly (${name})`)
        : job.kind === "escrow"
          ? refuseEscrow("rpc_unavailable", `The escrow operation failed unexpectedly (${name}); the reservation is read before any retry`)
          : job.kind === "x402"
            ? refuseX402("rpc_unavailable", `The x402 ${job.operation.op} failed unexpectedly (${name}); its outcome is unknown`)
            : refuseOperation("rpc_unavailable", `The chain operation failed unexpectedly (${name}); its outcome is looked up before any retry`);
  }
  self.postMessage({ id: job.id, verdict } satisfies JobResponse);
};
