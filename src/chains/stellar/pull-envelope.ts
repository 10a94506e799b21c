/**
 * Recognising one of our pulls in a landed envelope: source = the operator, one invocation of the SAC's
 * `transfer_from(operator, payer, payee, amount)`, the reference as the hash memo. Only the operator can
 * sign such a transaction (transfer_from needs the spender's authorization), so a match is ours.
 */
import { Address, FeeBumpTransaction, scValToBigInt, TransactionBuilder, type xdr } from "@stellar/stellar-sdk";
import { carriesReference } from "./reference";
import type { StellarContext } from "./soroban-context";

/** The amount the envelope pulled, or null when it is not our pull for this reference and these parties. */
export function pulledAmount(ctx: StellarContext, envelope: xdr.TransactionEnvelope, reference: Uint8Array): bigint | null {
  const decoded = TransactionBuilder.fromXDR(envelope, ctx.passphrase);
  const tx = decoded instanceof FeeBumpTransaction ? decoded.innerTransaction : decoded;
  if (tx.source !== ctx.operator.publicKey() || !carriesReference(tx.memo, reference) || tx.operations.length !== 1) return null;
  const op = tx.operations[0];
  if (op?.type !== "invokeHostFunction" || op.func.type !== "hostFunctionTypeInvokeContract") return null;
  const { contractAddress, functionName, args } = op.func.invokeContract;
  if (Address.fromScAddress(contractAddress).toString() !== ctx.contractId || functionName.toString() !== "transfer_from") return null;
  const [spender, from, to, amount] = args;
  if (args.length !== 4 || !spender || !from || !to || amount?.type !== "scvI128") return null;
  const parties = [spender, from, to].map((val) => (val.type === "scvAddress" ? Address.fromScVal(val).toString() : ""));
  if (parties[0] !== ctx.operator.publicKey() || parties[1] !== ctx.payer || parties[2] !== ctx.payee) return null;
  return scValToBigInt(amount);
}
