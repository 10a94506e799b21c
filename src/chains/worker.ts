/**
 * Entry of one chain worker (a Bun Worker). It runs many jobs at once: they wait on the network, not
 * the CPU. It never answers with an exception: adapters return verdicts, and anything else that goes
 * wrong still becomes a verdict for that job.
 */
/// <reference lib="webworker" />
import { ADAPTERS, type JobRequest, type JobResponse } from "./jobs";
import { refuse, type ChainAdapter, type ChainFamily, type PaymentVerdict } from "./types";

declare const self: Worker;

const loaded = new Map<ChainFamily, Promise<ChainAdapter>>();

async function handle(job: JobRequest): Promise<PaymentVerdict> {
  const family = job.expectation.network.family;
  let adapter = loaded.get(family);
  if (!adapter) {
    adapter = ADAPTERS[family]();
    loaded.set(family, adapter);
    adapter.catch(() => loaded.delete(family)); // a failed import is tried again by the next job
  }
  return (await adapter).verifyPayment(job.expectation);
}

self.onmessage = async (event: MessageEvent<JobRequest>) => {
  const job = event.data;
  let verdict: PaymentVerdict;
  try {
    verdict = await handle(job);
  } catch (error) {
    verdict = refuse("rpc_unavailable", `Verification failed unexpectedly (${error instanceof Error ? error.name : "Error"})`);
  }
  self.postMessage({ id: job.id, verdict } satisfies JobResponse);
};
