/**
 * The "stellar-core" half of the double: accepts checked transactions, closes ledgers, applies them against
 * the DoubleLedger, and keeps what the RPC serves afterwards (transaction records, contract events, ledger
 * close times). One pending transaction per source account, as core's queue allows; with `hold` set,
 * accepted transactions wait for `closeLedger()` instead of landing at once.
 */
import type { xdr } from "@stellar/stellar-sdk";
import { testNow } from "../clock";
import { DoubleLedger } from "./stellar-rpc-ledger";
import { type Accepted, checkEnvelope, type ErrorCode, hostCheck } from "./stellar-rpc-submit";
import { b64, contractEvent, returnValueHash, transactionMeta, transactionResult } from "./stellar-rpc-xdr";

export interface TxRecord {
  hash: string;
  status: "SUCCESS" | "FAILED";
  ledger: number;
  applicationOrder: number;
  envelopeXdr: string;
  resultXdr: string;
  resultMetaXdr: string;
  events: xdr.ContractEvent[];
}

export interface EventRecord {
  /** stellar-rpc's paging id: TOID(ledger, tx, op) (19 digits) - event index (10 digits) */
  id: string;
  ledger: number;
  transactionIndex: number;
  txHash: string;
  contractId: string;
  topics: xdr.ScVal[];
  value: xdr.ScVal;
}

export type Submitted = { status: "PENDING" | "DUPLICATE" | "TRY_AGAIN_LATER"; hash: string } | { status: "ERROR"; hash: string; code: ErrorCode };

export const eventId = (ledger: number, tx: number, op: number, event: number): string =>
  `${((BigInt(ledger) << 32n) | (BigInt(tx) << 12n) | BigInt(op)).toString().padStart(19, "0")}-${String(event).padStart(10, "0")}`;

/**
 * The double's clock: the wall's pace from where the test's clock starts (TEST_NOW, else now), as anvil's does
 * under `--timestamp`, so ledgers close at times the service's clock agrees with.
 */
const offsetMs = testNow() - Date.now();
export const chainNowMs = (): number => Date.now() + offsetMs;
const nowSeconds = () => Math.floor(chainNowMs() / 1000);

export class DoubleNode {
  readonly ledger: DoubleLedger;
  readonly oldestLedger: number;
  readonly records = new Map<string, TxRecord>();
  readonly events: EventRecord[] = [];
  private readonly closeTimes = new Map<number, number>();
  private readonly pending = new Map<string, Accepted>();
  hold = false;

  constructor(passphrase: string, firstLedger: number) {
    this.ledger = new DoubleLedger(passphrase, firstLedger);
    this.oldestLedger = firstLedger;
    this.closeTimes.set(firstLedger, nowSeconds());
  }

  get latest(): number {
    return this.ledger.sequence;
  }

  closeTime(ledger: number): number {
    return this.closeTimes.get(ledger) ?? this.closeTimes.get(this.latest)!;
  }

  submit(envelopeXdr: string): Submitted {
    const checked = checkEnvelope(this.ledger, envelopeXdr, nowSeconds());
    if (!checked.ok) return { status: "ERROR", hash: checked.hash, code: checked.code };
    const { accepted } = checked;
    if (this.records.has(accepted.hash) || this.pending.get(accepted.tx.source)?.hash === accepted.hash)
      return { status: "DUPLICATE", hash: accepted.hash };
    if (this.pending.has(accepted.tx.source)) return { status: "TRY_AGAIN_LATER", hash: accepted.hash };
    this.pending.set(accepted.tx.source, accepted);
    if (!this.hold) this.closeLedger();
    return { status: "PENDING", hash: accepted.hash };
  }

  /** Closes `count` ledgers; the first includes every pending transaction, in arrival order. */
  closeLedger(count = 1): void {
    const included = [...this.pending.values()];
    this.pending.clear();
    this.ledger.sequence += 1;
    this.closeTimes.set(this.latest, nowSeconds());
    included.forEach((accepted, index) => this.apply(accepted, index + 1));
    if (count > 1) {
      this.ledger.sequence += count - 1;
      this.closeTimes.set(this.latest, nowSeconds());
    }
  }

  private apply(accepted: Accepted, order: number): void {
    const { tx, invocation } = accepted;
    const account = this.ledger.accounts.get(tx.source)!;
    // A transaction in a ledger consumes its sequence number and pays its fee whether or not it succeeds.
    account.sequence = BigInt(tx.sequence);
    const fee = BigInt(tx.fee);
    account.xlm -= fee;
    const trap = hostCheck(accepted, this.ledger.call(invocation, false));
    const applied = trap === null ? this.ledger.call(invocation, true) : null;
    const emitted = applied?.ok ? applied.events : [];
    const events = emitted.map(({ topics, data }) => contractEvent(invocation.contractId, topics, data));
    const retval = applied?.ok ? applied.retval : null;
    const result = transactionResult(fee, retval ? "success" : "trapped", retval ? returnValueHash(retval) : new Uint8Array(32));
    this.records.set(accepted.hash, {
      hash: accepted.hash,
      status: retval ? "SUCCESS" : "FAILED",
      ledger: this.latest,
      applicationOrder: order,
      envelopeXdr: b64(tx.toEnvelope()),
      resultXdr: b64(result),
      resultMetaXdr: b64(transactionMeta(events, retval)),
      events,
    });
    emitted.forEach(({ topics, data }, index) => {
      const id = eventId(this.latest, order, 0, index);
      this.events.push({
        id,
        ledger: this.latest,
        transactionIndex: order,
        txHash: accepted.hash,
        contractId: invocation.contractId,
        topics,
        value: data,
      });
    });
  }
}
