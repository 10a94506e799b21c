/**
 * The Stellar Asset Contract (SAC): the built-in token contract every classic asset (and XLM) has on
 * Soroban, at an address derived from the asset and the network passphrase. Subscriptions use its SEP-41
 * allowance pair: the payer's `approve(from, spender, amount, live_until_ledger)`, the operator's
 * `transfer_from(spender, from, to, amount)`. This file builds the calls and reads the storage the
 * contract keeps, in the layout of soroban-env-host's stellar_asset_contract/storage_types.rs.
 */
import { Address, Asset, Contract, nativeToScVal, scValToBigInt, xdr } from "@stellar/stellar-sdk";
import type { TokenConfig } from "../types";

/** The asset behind a token entry, or null when the entry names none (the registry should not allow it). */
export function tokenAsset(token: TokenConfig): Asset | null {
  if (token.native) return Asset.native();
  if (!token.assetCode || !token.assetIssuer) return null;
  return new Asset(token.assetCode, token.assetIssuer);
}

/** The SAC's contract id (C...): a hash of the network id and the asset, so it differs per network. */
export const sacContractId = (asset: Asset, networkPassphrase: string): string => asset.contractId(networkPassphrase);

export const addressVal = (account: string): xdr.ScVal => new Address(account).toScVal();
export const i128Val = (amount: bigint): xdr.ScVal => nativeToScVal(amount, { type: "i128" });
const symbolVal = (name: string): xdr.ScVal => xdr.ScVal.scvSymbol(name);

export type SacCall =
  | { fn: "allowance"; from: string; spender: string }
  | { fn: "balance"; id: string }
  | { fn: "transfer_from"; spender: string; from: string; to: string; amount: bigint };

/** The invokeHostFunction operation of one SAC call (argument order as SEP-41 defines it). */
export function sacOperation(contractId: string, call: SacCall): xdr.Operation {
  const contract = new Contract(contractId);
  switch (call.fn) {
    case "allowance":
      return contract.call("allowance", addressVal(call.from), addressVal(call.spender));
    case "balance":
      return contract.call("balance", addressVal(call.id));
    case "transfer_from":
      return contract.call("transfer_from", addressVal(call.spender), addressVal(call.from), addressVal(call.to), i128Val(call.amount));
  }
}

/**
 * The temporary-storage key of an allowance: `DataKey::Allowance(AllowanceDataKey { from, spender })`, which
 * a `#[contracttype]` enum encodes as vec[Symbol(variant), map{field: value} sorted by field name].
 */
export function allowanceLedgerKey(contractId: string, from: string, spender: string): xdr.LedgerKey {
  const dataKey = xdr.ScVal.scvVec([
    symbolVal("Allowance"),
    xdr.ScVal.scvMap([
      new xdr.ScMapEntry({ key: symbolVal("from"), val: addressVal(from) }),
      new xdr.ScMapEntry({ key: symbolVal("spender"), val: addressVal(spender) }),
    ]),
  ]);
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: new Address(contractId).toScAddress(),
      key: dataKey,
      durability: xdr.ContractDataDurability.temporary,
    }),
  );
}

export interface StoredAllowance {
  amount: bigint;
  /** the last ledger the allowance can be spent in (`live_until_ledger`) */
  liveUntilLedger: number;
}

/**
 * Reads `AllowanceValue { amount: i128, live_until_ledger: u32 }`. Early protocol-20 builds called the
 * second field `expiration_ledger`; the u32 beside `amount` is taken whatever its name. Null when the entry
 * is not an allowance value.
 */
export function readAllowanceValue(data: xdr.LedgerEntryData): StoredAllowance | null {
  if (data.type !== "contractData") return null;
  const val = data.contractData.val;
  if (val.type !== "scvMap" || !val.map) return null;
  let amount: bigint | null = null;
  let liveUntilLedger: number | null = null;
  for (const { key, val: field } of val.map) {
    if (key.type !== "scvSymbol") continue;
    const name = key.sym.toString();
    if (name === "amount" && field.type === "scvI128") amount = scValToBigInt(field);
    else if (field.type === "scvU32") liveUntilLedger = field.u32;
  }
  return amount === null || liveUntilLedger === null ? null : { amount, liveUntilLedger };
}
