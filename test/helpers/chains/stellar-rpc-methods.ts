/**
 * The double's JSON-RPC methods, in the shapes stellar-rpc (protocol 23) answers: the subset the SDK's
 * rpc.Server needs for accounts, simulation, submission, transaction status, events and ledger entries.
 * int64 values that stellar-rpc encodes as JSON strings are strings here too.
 */
import { hash, TransactionBuilder, xdr } from "@stellar/stellar-sdk";
import type { DoubleNode, EventRecord } from "./stellar-rpc-node";
import { eventId } from "./stellar-rpc-node";
import { INCLUSION_FEE, invocationArgs, invocationOf, RESOURCE_FEE } from "./stellar-rpc-submit";
import {
  accountEntry,
  accountKey,
  allowanceDataKey,
  allowanceEntry,
  b64,
  contractDataKey,
  errorResult,
  ledgerCloseMeta,
  ledgerHeader,
  sorobanData,
  sourceAccountAuth,
} from "./stellar-rpc-xdr";

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** stellar-rpc scans at most this many ledgers per getEvents request. */
export const SCAN_LIMIT = 10_000;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
type Params = Record<string, unknown>;

export function methods(node: DoubleNode): Record<string, (params: Params) => unknown> {
  const retention = () => ({
    latestLedger: node.latest,
    latestLedgerCloseTime: String(node.closeTime(node.latest)),
    oldestLedger: node.oldestLedger,
    oldestLedgerCloseTime: String(node.closeTime(node.oldestLedger)),
  });
  return {
    getHealth: () => ({
      status: "healthy",
      latestLedger: node.latest,
      oldestLedger: node.oldestLedger,
      ledgerRetentionWindow: node.latest - node.oldestLedger + 1,
    }),
    getNetwork: () => ({ passphrase: node.ledger.passphrase, protocolVersion: 23 }),
    getLatestLedger: () => {
      const header = ledgerHeader(node.latest, node.closeTime(node.latest));
      return {
        id: hex(hash(header.toXDR())),
        sequence: node.latest,
        protocolVersion: 23,
        closeTime: String(node.closeTime(node.latest)),
        headerXdr: b64(header),
        metadataXdr: b64(ledgerCloseMeta(header)),
      };
    },
    getLedgerEntries: (params) => ({ entries: (params.keys as string[]).flatMap((key) => ledgerEntry(node, key)), latestLedger: node.latest }),
    simulateTransaction: (params) => simulate(node, String(params.transaction)),
    sendTransaction: (params) => {
      const sent = node.submit(String(params.transaction));
      const base = { hash: sent.hash, status: sent.status, latestLedger: node.latest, latestLedgerCloseTime: String(node.closeTime(node.latest)) };
      return sent.status === "ERROR" ? { ...base, errorResultXdr: b64(errorResult(sent.code)) } : base;
    },
    getTransaction: (params) => {
      const record = node.records.get(String(params.hash).toLowerCase());
      if (!record) return { status: "NOT_FOUND", ...retention() };
      return {
        status: record.status,
        txHash: record.hash,
        ...retention(),
        applicationOrder: record.applicationOrder,
        feeBump: false,
        envelopeXdr: record.envelopeXdr,
        resultXdr: record.resultXdr,
        resultMetaXdr: record.resultMetaXdr,
        ledger: record.ledger,
        createdAt: String(node.closeTime(record.ledger)),
        events: { contractEventsXdr: [record.events.map(b64)], transactionEventsXdr: [] },
      };
    },
    getEvents: (params) => getEvents(node, params, retention()),
  };
}

/** Accounts and allowance entries; keys the double does not model are absent, as unknown keys are. */
function ledgerEntry(node: DoubleNode, keyXdr: string): object[] {
  const found = (data: xdr.LedgerEntryData, liveUntil?: number) => [
    { key: keyXdr, xdr: b64(data), lastModifiedLedgerSeq: node.latest, ...(liveUntil === undefined ? {} : { liveUntilLedgerSeq: liveUntil }) },
  ];
  for (const [account, state] of node.ledger.accounts) {
    if (b64(accountKey(account)) === keyXdr) return found(accountEntry(account, state.xlm, state.sequence));
  }
  for (const [contractId, token] of node.ledger.tokens) {
    for (const [pair, allowance] of token.allowances) {
      const [from, spender] = pair.split(">") as [string, string];
      if (b64(contractDataKey(contractId, allowanceDataKey(from, spender), "temporary")) !== keyXdr) continue;
      // A temporary entry is gone once its TTL (the approval's last ledger) has passed.
      return allowance.liveUntil < node.latest
        ? []
        : found(allowanceEntry(contractId, from, spender, allowance.amount, allowance.liveUntil), allowance.liveUntil);
    }
  }
  return [];
}

/** Recording-mode simulation: the result, the footprint the call touches, the fee, source-account auth. */
function simulate(node: DoubleNode, envelopeXdr: string): object {
  const base = { latestLedger: node.latest, events: [] };
  let tx: ReturnType<typeof TransactionBuilder.fromXDR>;
  try {
    tx = TransactionBuilder.fromXDR(envelopeXdr, node.ledger.passphrase);
  } catch {
    throw new RpcError(-32602, "could not unmarshal transaction");
  }
  const found = "innerTransaction" in tx ? null : invocationOf(tx);
  if (!found) return { ...base, error: "the double simulates single contract invocations only" };
  const result = node.ledger.call(found.invocation, false);
  if (!result.ok) return { ...base, error: result.error };
  let auth: string[] = [];
  if (result.requiresAuth !== null) {
    if (result.requiresAuth !== (tx as { source: string }).source) return { ...base, error: "the double records source-account authorization only" };
    auth = [b64(sourceAccountAuth(invocationArgs(found.invocation)))];
  }
  return {
    ...base,
    minResourceFee: String(RESOURCE_FEE),
    transactionData: b64(sorobanData(result.readOnly, result.readWrite, RESOURCE_FEE)),
    results: [{ auth, xdr: b64(result.retval) }],
    cost: { cpuInsns: "2000000", memBytes: "100000" },
    inclusionFee: String(INCLUSION_FEE),
  };
}

interface Filter {
  type?: string;
  contractIds?: string[];
  topics?: string[][];
}

function matches(event: EventRecord, filters: Filter[]): boolean {
  if (filters.length === 0) return true;
  const topics = event.topics.map(b64);
  return filters.some(
    (filter) =>
      (filter.type === undefined || filter.type === "contract") &&
      (!filter.contractIds?.length || filter.contractIds.includes(event.contractId)) &&
      (!filter.topics?.length || filter.topics.some((segments) => topicsMatch(segments, topics))),
  );
}

/** "*" matches one segment, a trailing "**" any number; otherwise segment by segment, same length. */
function topicsMatch(segments: string[], topics: string[]): boolean {
  for (const [i, segment] of segments.entries()) {
    if (segment === "**") return true;
    if (i >= topics.length || (segment !== "*" && segment !== topics[i])) return false;
  }
  return segments.length === topics.length;
}

function getEvents(node: DoubleNode, params: Params, retention: object): object {
  const pagination = (params.pagination ?? {}) as { cursor?: string; limit?: number };
  const limit = Math.min(pagination.limit ?? 100, 10_000);
  const cursor = pagination.cursor;
  let start: number;
  if (cursor) start = Number(BigInt(cursor.split("-")[0]!) >> 32n);
  else {
    start = Number(params.startLedger);
    if (!(start >= node.oldestLedger && start <= node.latest)) {
      throw new RpcError(-32600, `startLedger must be within the ledger range: ${node.oldestLedger} - ${node.latest}`);
    }
  }
  let end = Math.min(start + SCAN_LIMIT, node.latest + 1);
  if (!cursor && params.endLedger) end = Math.min(end, Number(params.endLedger));
  const filters = (params.filters ?? []) as Filter[];
  const page = node.events
    .filter((event) => event.ledger >= start && event.ledger < end && (!cursor || event.id > cursor) && matches(event, filters))
    .slice(0, limit);
  const next = page.length === limit ? page[page.length - 1]!.id : eventId(end - 1, 0xfffff, 0xfff, 0xffffffff);
  const events = page.map((event) => ({
    type: "contract",
    ledger: event.ledger,
    ledgerClosedAt: new Date(node.closeTime(event.ledger) * 1000).toISOString(),
    contractId: event.contractId,
    id: event.id,
    operationIndex: 0,
    transactionIndex: event.transactionIndex,
    txHash: event.txHash,
    inSuccessfulContractCall: true,
    topic: event.topics.map(b64),
    value: b64(event.value),
  }));
  return { events, cursor: next, ...retention };
}
