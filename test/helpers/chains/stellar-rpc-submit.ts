/**
 * What the double checks on a submitted envelope, in stellar-core's order: it decodes for this network's
 * passphrase, is signed by its source account's key over the network-bound hash, uses the account's next
 * sequence number, is inside its time bounds, and carries Soroban resources paid for by its fee. Then, at
 * application, the host's checks: the invoked contract and function exist, the arguments have the right
 * types, the footprint declares every entry touched, and the address that must authorize did so.
 */
import { Address, FeeBumpTransaction, Keypair, type Transaction, TransactionBuilder, xdr } from "@stellar/stellar-sdk";
import type { CallResult, DoubleLedger, Invocation } from "./stellar-rpc-ledger";
import { b64 } from "./stellar-rpc-xdr";

/** The resource fee the double's simulation quotes, and the least a transaction may declare. */
export const RESOURCE_FEE = 60_000n;
export const INCLUSION_FEE = 100n;

export type ErrorCode =
  | "txBadSeq"
  | "txBadAuth"
  | "txTooLate"
  | "txTooEarly"
  | "txMalformed"
  | "txInsufficientFee"
  | "txNoAccount"
  | "txSorobanInvalid";

export interface Accepted {
  tx: Transaction;
  hash: string;
  invocation: Invocation;
  auth: xdr.SorobanAuthorizationEntry[];
  data: xdr.SorobanTransactionData;
}

export type Checked = { ok: true; accepted: Accepted } | { ok: false; code: ErrorCode; hash: string };

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** The invocation inside a transaction's single invokeHostFunction operation, if that is what it holds. */
export function invocationOf(tx: Transaction): { invocation: Invocation; auth: xdr.SorobanAuthorizationEntry[] } | null {
  const op = tx.operations.length === 1 ? tx.operations[0] : undefined;
  if (op?.type !== "invokeHostFunction" || op.func.type !== "hostFunctionTypeInvokeContract") return null;
  const { contractAddress, functionName, args } = op.func.invokeContract;
  return { invocation: { contractId: Address.fromScAddress(contractAddress).toString(), fn: functionName.toString(), args }, auth: op.auth ?? [] };
}

export function checkEnvelope(ledger: DoubleLedger, envelopeXdr: string, nowSeconds: number): Checked {
  let decoded: Transaction | FeeBumpTransaction;
  try {
    decoded = TransactionBuilder.fromXDR(envelopeXdr, ledger.passphrase);
  } catch {
    return { ok: false, code: "txMalformed", hash: "" };
  }
  const hash = decoded.hash();
  const refused = (code: ErrorCode): Checked => ({ ok: false, code, hash: hex(hash) });
  if (decoded instanceof FeeBumpTransaction) return refused("txMalformed");
  const tx = decoded;
  const account = ledger.accounts.get(tx.source);
  if (!account) return refused("txNoAccount");
  // The hash commits to the passphrase: a signature made for another network verifies against nothing here.
  const signer = Keypair.fromPublicKey(tx.source);
  const hint = signer.rawPublicKey().subarray(28);
  const signed = tx.signatures.some((sig) => hex(sig.hint.value) === hex(hint) && signer.verify(Buffer.from(hash), Buffer.from(sig.signature.value)));
  if (!signed) return refused("txBadAuth");
  if (BigInt(tx.sequence) !== account.sequence + 1n) return refused("txBadSeq");
  const minTime = Number(tx.timeBounds?.minTime ?? 0);
  const maxTime = Number(tx.timeBounds?.maxTime ?? 0);
  if (nowSeconds < minTime) return refused("txTooEarly");
  if (maxTime !== 0 && nowSeconds > maxTime) return refused("txTooLate");
  const found = invocationOf(tx);
  if (!found) return refused("txMalformed");
  const envelope = tx.toEnvelope();
  const ext = envelope.type === "envelopeTypeTx" ? envelope.v1.tx.ext : null;
  if (ext?.type !== "sorobanData") return refused("txSorobanInvalid");
  const data = ext.sorobanData;
  if (data.resourceFee < RESOURCE_FEE || BigInt(tx.fee) < data.resourceFee + INCLUSION_FEE) return refused("txInsufficientFee");
  return { ok: true, accepted: { tx, hash: hex(hash), invocation: found.invocation, auth: found.auth, data } };
}

/**
 * The host's verdict on an accepted transaction against the current state: null when it may apply, else
 * why it traps. The footprint and the authorization are what an envelope tampered with after simulation
 * (or built without one) gets wrong.
 */
export function hostCheck(accepted: Accepted, result: CallResult): string | null {
  if (!result.ok) return result.error;
  const { footprint } = accepted.data.resources;
  const readWrite = new Set(footprint.readWrite.map(b64));
  const readable = new Set([...readWrite, ...footprint.readOnly.map(b64)]);
  if (!result.readWrite.every((key) => readWrite.has(b64(key))) || !result.readOnly.every((key) => readable.has(b64(key)))) {
    return "HostError: Error(Storage, ExceededLimit)\n\naccessed an entry outside the footprint";
  }
  if (result.requiresAuth !== null && !authorized(accepted, result.requiresAuth)) {
    return "HostError: Error(Auth, InvalidAction)\n\nUnauthorized function call for address";
  }
  return null;
}

/** Only source-account credentials are understood: the authorizing address must be the transaction's source. */
function authorized(accepted: Accepted, address: string): boolean {
  if (address !== accepted.tx.source) return false;
  const wanted = b64(invocationArgs(accepted.invocation));
  return accepted.auth.some(
    (entry) =>
      entry.credentials.type === "sorobanCredentialsSourceAccount" &&
      entry.rootInvocation.function.type === "sorobanAuthorizedFunctionTypeContractFn" &&
      b64(entry.rootInvocation.function.contractFn) === wanted,
  );
}

export const invocationArgs = (invocation: Invocation): xdr.InvokeContractArgs =>
  new xdr.InvokeContractArgs({
    contractAddress: new Address(invocation.contractId).toScAddress(),
    functionName: invocation.fn,
    args: invocation.args,
  });
