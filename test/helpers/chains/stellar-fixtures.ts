/**
 * Real, signed Stellar transactions built with the SDK, the `result_xdr` stellar-core would record for
 * them, and a fake Horizon that serves both in the exact shape of `GET /transactions/{hash}`.
 * Nothing here knows how the adapter works; it only produces what the network would.
 */
import {
  Account,
  Asset,
  extractBaseAddress,
  FeeBumpTransaction,
  Keypair,
  Memo,
  Networks,
  Operation,
  TransactionBuilder,
  xdr,
  type Transaction,
} from "@stellar/stellar-sdk/base";
import type { NetworkConfig, TokenConfig } from "../../../src/chains/types";

export const PASSPHRASE = Networks.TESTNET;

export const payer = Keypair.random();
export const merchant = Keypair.random();
export const stranger = Keypair.random();
export const issuer = Keypair.random();
/** issues an asset also called "USDC": same code, different asset */
export const impostor = Keypair.random();

export const usdc = new Asset("USDC", issuer.publicKey());
export const fakeUsdc = new Asset("USDC", impostor.publicKey());
export const xlm = Asset.native();

export const USDC: TokenConfig = { symbol: "USDC", decimals: 7, assetCode: "USDC", assetIssuer: issuer.publicKey() };
export const XLM: TokenConfig = { symbol: "XLM", decimals: 7, native: true };

export function stellarNetwork(rpcUrl: string): NetworkConfig {
  return {
    id: "stellar-testnet",
    family: "stellar",
    testnet: true,
    chainId: null,
    rpcUrl,
    networkPassphrase: PASSPHRASE,
    confirmations: 0,
    tokens: [USDC, XLM],
  };
}

export const pay = (destination: string, asset: Asset, amount: string, source?: string) =>
  Operation.payment({ destination, asset, amount, ...(source ? { source } : {}) });

let sequence = 4_000_000_000n;

/** A signed transaction from `from` (default: payer) carrying `ops`. */
export function signedTx(ops: xdr.Operation[], opts: { memo?: Memo; from?: Keypair; passphrase?: string } = {}): Transaction {
  const from = opts.from ?? payer;
  const builder = new TransactionBuilder(new Account(from.publicKey(), String(sequence++)), {
    fee: "100",
    networkPassphrase: opts.passphrase ?? PASSPHRASE,
    ...(opts.memo ? { memo: opts.memo } : {}),
  });
  for (const op of ops) builder.addOperation(op);
  const tx = builder.setTimeout(0).build();
  tx.sign(from);
  return tx;
}

export function feeBumped(inner: Transaction, feeSource: Keypair = stranger): FeeBumpTransaction {
  const tx = TransactionBuilder.buildFeeBumpTransaction(feeSource, "200", inner, PASSPHRASE);
  tx.sign(feeSource);
  return tx;
}

export const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");
export const hashOf = (tx: Transaction | FeeBumpTransaction): string => hex(tx.hash());

// --- result_xdr --------------------------------------------------------------------------------------

/** What stellar-core records when every operation of `tx` applied. */
function appliedOpResults(tx: Transaction): xdr.OperationResult[] {
  return tx.operations.map((op) => {
    if (op.type === "payment") return xdr.OperationResult.opInner(xdr.OperationResultTr.payment(xdr.PaymentResult.paymentSuccess()));
    if (op.type === "pathPaymentStrictReceive") {
      const last = new xdr.SimplePaymentResult({
        destination: Keypair.fromPublicKey(extractBaseAddress(op.destination)).xdrPublicKey(),
        asset: op.destAsset.toXdrObject(),
        amount: BigInt(op.destAmount.replace(".", "")),
      });
      const success = new xdr.PathPaymentStrictReceiveResultSuccess({ offers: [], last });
      return xdr.OperationResult.opInner(
        xdr.OperationResultTr.pathPaymentStrictReceive(xdr.PathPaymentStrictReceiveResult.pathPaymentStrictReceiveSuccess(success)),
      );
    }
    throw new Error(`fixture has no result for ${op.type}`);
  });
}

export function successResult(tx: Transaction): string {
  const result = xdr.TransactionResultResult.txSuccess(appliedOpResults(tx));
  return new xdr.TransactionResult({ feeCharged: 100n, result, ext: xdr.TransactionResultExt.v0() }).toXdr("base64");
}

/** txFailed: the first payment was underfunded, so nothing applied. */
export function failedResult(tx: Transaction): string {
  const results = tx.operations.map((_, i) =>
    i === 0 ? xdr.OperationResult.opInner(xdr.OperationResultTr.payment(xdr.PaymentResult.paymentUnderfunded())) : xdr.OperationResult.opBadAuth(),
  );
  const result = xdr.TransactionResultResult.txFailed(results);
  return new xdr.TransactionResult({ feeCharged: 100n, result, ext: xdr.TransactionResultExt.v0() }).toXdr("base64");
}

export function feeBumpResult(tx: FeeBumpTransaction, innerApplied = true): string {
  const inner = tx.innerTransaction;
  const innerResult = new xdr.InnerTransactionResult({
    feeCharged: 100n,
    result: innerApplied
      ? xdr.InnerTransactionResultResult.txSuccess(appliedOpResults(inner))
      : xdr.InnerTransactionResultResult.txFailed([
          xdr.OperationResult.opInner(xdr.OperationResultTr.payment(xdr.PaymentResult.paymentUnderfunded())),
        ]),
    ext: xdr.InnerTransactionResultExt.v0(),
  });
  const pair = new xdr.InnerTransactionResultPair({ transactionHash: inner.hash(), result: innerResult });
  const result = innerApplied ? xdr.TransactionResultResult.txFeeBumpInnerSuccess(pair) : xdr.TransactionResultResult.txFeeBumpInnerFailed(pair);
  return new xdr.TransactionResult({ feeCharged: 200n, result, ext: xdr.TransactionResultExt.v0() }).toXdr("base64");
}

// --- Horizon's transaction resource ------------------------------------------------------------------

let nextLedger = 51_000_000;
const HORIZON = "https://horizon-testnet.stellar.org";
const EMPTY_LEDGER_ENTRY_CHANGES = "AAAAAA=="; // fee_meta_xdr: an empty LedgerEntryChanges array
const signaturesOf = (tx: Transaction | FeeBumpTransaction) => tx.signatures.map((s) => Buffer.from(s.signature.value).toString("base64"));

function memoFields(memo: Memo): Record<string, string> {
  if (memo.type === "none") return { memo_type: "none" };
  if (memo.type === "text") {
    const bytes = memo.value as Uint8Array;
    return { memo_type: "text", memo: new TextDecoder().decode(bytes), memo_bytes: Buffer.from(bytes).toString("base64") };
  }
  if (memo.type === "id") return { memo_type: "id", memo: String(memo.value) };
  return { memo_type: memo.type, memo: Buffer.from(memo.value as Uint8Array).toString("base64") };
}

/** `GET /transactions/{hash}` as Horizon answers it; `overrides` lets a test make the JSON lie. */
export function horizonRecord(tx: Transaction | FeeBumpTransaction, resultXdr: string, overrides: Record<string, unknown> = {}) {
  const hash = hashOf(tx);
  const ledger = nextLedger++;
  const pagingToken = ((BigInt(ledger) << 32n) + (1n << 12n)).toString();
  const inner = tx instanceof FeeBumpTransaction ? tx.innerTransaction : tx;
  const feeBump =
    tx instanceof FeeBumpTransaction
      ? {
          fee_account: tx.feeSource,
          fee_bump_transaction: { hash, signatures: signaturesOf(tx) },
          inner_transaction: { hash: hashOf(inner), signatures: signaturesOf(inner), max_fee: inner.fee },
        }
      : { fee_account: inner.source };
  return {
    _links: {
      self: { href: `${HORIZON}/transactions/${hash}` },
      account: { href: `${HORIZON}/accounts/${inner.source}` },
      ledger: { href: `${HORIZON}/ledgers/${ledger}` },
      operations: { href: `${HORIZON}/transactions/${hash}/operations{?cursor,limit,order}`, templated: true },
      effects: { href: `${HORIZON}/transactions/${hash}/effects{?cursor,limit,order}`, templated: true },
      precedes: { href: `${HORIZON}/transactions?order=asc&cursor=${pagingToken}` },
      succeeds: { href: `${HORIZON}/transactions?order=desc&cursor=${pagingToken}` },
      transaction: { href: `${HORIZON}/transactions/${hash}` },
    },
    id: hash,
    paging_token: pagingToken,
    successful: true,
    hash,
    ledger,
    created_at: "2025-06-02T10:15:42Z",
    source_account: inner.source,
    source_account_sequence: inner.sequence,
    fee_charged: tx instanceof FeeBumpTransaction ? "200" : "100",
    max_fee: tx.fee,
    operation_count: inner.operations.length,
    envelope_xdr: tx.toXDR(),
    result_xdr: resultXdr,
    fee_meta_xdr: EMPTY_LEDGER_ENTRY_CHANGES,
    ...memoFields(inner.memo),
    signatures: signaturesOf(tx),
    valid_after: "1970-01-01T00:00:00Z",
    preconditions: { timebounds: { min_time: "0" } },
    ...feeBump,
    ...overrides,
  };
}

// --- the fake Horizon --------------------------------------------------------------------------------

const problem = (status: number, title: string, detail: string, type: string) =>
  Response.json(
    { type: `https://stellar.org/horizon-errors/${type}`, title, status, detail },
    { status, headers: { "content-type": "application/problem+json; charset=utf-8" } },
  );

export const notFound = () =>
  problem(
    404,
    "Resource Missing",
    "The resource at the url requested was not found.  This usually occurs for one of two reasons:  The url requested is not valid, or no data in our database could be found with the parameters provided.",
    "not_found",
  );

export const serverError = () =>
  problem(
    500,
    "Internal Server Error",
    "An error occurred while processing this request.  This is usually due to a bug within the server software.",
    "server_error",
  );

type Handler = () => Response | Promise<Response>;

export interface FakeHorizon {
  url: string;
  /** how many requests reached the server */
  readonly requests: number;
  /** serve `record` (JSON) or a custom handler at `/transactions/{hash}` */
  serve(hash: string, record: object | Handler): void;
  stop(): void;
}

export function startFakeHorizon(): FakeHorizon {
  const routes = new Map<string, Handler>();
  let requests = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      requests++;
      const match = /^\/transactions\/([^/]+)$/.exec(new URL(request.url).pathname);
      const handler = match?.[1] ? routes.get(match[1]) : undefined;
      if (!handler) return notFound();
      return handler();
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    get requests() {
      return requests;
    },
    serve(hash, record) {
      const handler: Handler =
        typeof record === "function"
          ? (record as Handler)
          : () => Response.json(record, { headers: { "content-type": "application/hal+json; charset=utf-8" } });
      routes.set(hash, handler);
    },
    stop: () => void server.stop(true),
  };
}

/** A URL nothing listens on: bind a port, then let it go. */
export async function closedPortUrl(): Promise<string> {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const url = `http://127.0.0.1:${server.port}`;
  await server.stop(true);
  return url;
}
