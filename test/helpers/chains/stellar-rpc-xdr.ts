/**
 * The XDR a Soroban RPC hands out, built for the double: ledger keys and entries, the simulation's
 * transaction data and auth, transaction results and meta (v4, with the contract events), and a ledger
 * header. Everything here is encoded with the SDK's own XDR types, so the client decodes exactly what a
 * real RPC would send.
 */
import { Address, type Asset, hash, Keypair, nativeToScVal, StrKey, xdr } from "@stellar/stellar-sdk";

export const b64 = (value: { toXDR(format: "base64"): string }): string => value.toXDR("base64");
const zeroHash = () => new Uint8Array(32);
const symbol = (name: string) => xdr.ScVal.scvSymbol(name);

// --- keys -------------------------------------------------------------------------------------------

export const accountKey = (account: string) =>
  xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: Keypair.fromPublicKey(account).xdrPublicKey() }));

export function contractDataKey(contractId: string, key: xdr.ScVal, durability: "temporary" | "persistent") {
  return xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({ contract: new Address(contractId).toScAddress(), key, durability: xdr.ContractDataDurability[durability] }),
  );
}

/** The SAC's `DataKey::Allowance(AllowanceDataKey { from, spender })`, written independently of src/. */
export function allowanceDataKey(from: string, spender: string): xdr.ScVal {
  const fields = xdr.ScVal.scvMap([
    new xdr.ScMapEntry({ key: symbol("from"), val: new Address(from).toScVal() }),
    new xdr.ScMapEntry({ key: symbol("spender"), val: new Address(spender).toScVal() }),
  ]);
  return xdr.ScVal.scvVec([symbol("Allowance"), fields]);
}

/** Where a balance lives: an account's XLM in its account entry, a credit asset in its trustline. */
export function balanceKey(holder: string, asset: Asset): xdr.LedgerKey {
  if (asset.isNative()) return accountKey(holder);
  const accountId = Keypair.fromPublicKey(holder).xdrPublicKey();
  return xdr.LedgerKey.trustline(new xdr.LedgerKeyTrustLine({ accountId, asset: asset.toTrustLineXDRObject() }));
}

export const instanceKey = (contractId: string) => contractDataKey(contractId, xdr.ScVal.scvLedgerKeyContractInstance(), "persistent");

// --- entries ----------------------------------------------------------------------------------------

export function accountEntry(account: string, balance: bigint, sequence: bigint): xdr.LedgerEntryData {
  return xdr.LedgerEntryData.account(
    new xdr.AccountEntry({
      accountId: Keypair.fromPublicKey(account).xdrPublicKey(),
      balance,
      seqNum: sequence,
      numSubEntries: 0,
      inflationDest: null,
      flags: 0,
      homeDomain: "",
      thresholds: new Uint8Array([1, 0, 0, 0]),
      signers: [],
      ext: xdr.AccountEntryExt.v0(),
    }),
  );
}

export function allowanceEntry(contractId: string, from: string, spender: string, amount: bigint, liveUntil: number): xdr.LedgerEntryData {
  const val = xdr.ScVal.scvMap([
    new xdr.ScMapEntry({ key: symbol("amount"), val: nativeToScVal(amount, { type: "i128" }) }),
    new xdr.ScMapEntry({ key: symbol("live_until_ledger"), val: xdr.ScVal.scvU32(liveUntil) }),
  ]);
  return xdr.LedgerEntryData.contractData(
    new xdr.ContractDataEntry({
      ext: xdr.ExtensionPoint.v0(),
      contract: new Address(contractId).toScAddress(),
      key: allowanceDataKey(from, spender),
      durability: xdr.ContractDataDurability.temporary,
      val,
    }),
  );
}

// --- simulation -------------------------------------------------------------------------------------

export function sorobanData(readOnly: xdr.LedgerKey[], readWrite: xdr.LedgerKey[], resourceFee: bigint): xdr.SorobanTransactionData {
  return new xdr.SorobanTransactionData({
    ext: xdr.SorobanTransactionDataExt.v0(),
    resources: new xdr.SorobanResources({
      footprint: new xdr.LedgerFootprint({ readOnly, readWrite }),
      instructions: 2_000_000,
      diskReadBytes: 1_000,
      writeBytes: 500,
    }),
    resourceFee,
  });
}

/** What recording mode returns when the authorizing address is the transaction's source account. */
export function sourceAccountAuth(invocation: xdr.InvokeContractArgs): xdr.SorobanAuthorizationEntry {
  return new xdr.SorobanAuthorizationEntry({
    credentials: xdr.SorobanCredentials.sorobanCredentialsSourceAccount(),
    rootInvocation: new xdr.SorobanAuthorizedInvocation({
      function: xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeContractFn(invocation),
      subInvocations: [],
    }),
  });
}

// --- results and meta -------------------------------------------------------------------------------

export function contractEvent(contractId: string, topics: xdr.ScVal[], data: xdr.ScVal): xdr.ContractEvent {
  return new xdr.ContractEvent({
    ext: xdr.ExtensionPoint.v0(),
    contractId: new xdr.ContractId(StrKey.decodeContract(contractId)),
    type: xdr.ContractEventType.contract,
    body: xdr.ContractEventBody.v0(new xdr.ContractEventV0({ topics, data })),
  });
}

export function transactionResult(fee: bigint, outcome: "success" | "trapped", returnHash: Uint8Array): xdr.TransactionResult {
  const op = xdr.OperationResult.opInner(
    xdr.OperationResultTr.invokeHostFunction(
      outcome === "success"
        ? xdr.InvokeHostFunctionResult.invokeHostFunctionSuccess(returnHash)
        : xdr.InvokeHostFunctionResult.invokeHostFunctionTrapped(),
    ),
  );
  const result = outcome === "success" ? xdr.TransactionResultResult.txSuccess([op]) : xdr.TransactionResultResult.txFailed([op]);
  return new xdr.TransactionResult({ feeCharged: fee, result, ext: xdr.TransactionResultExt.v0() });
}

/** A refusal at submission: the result code alone, as sendTransaction's errorResultXdr carries it. */
export function errorResult(
  code: "txBadSeq" | "txBadAuth" | "txTooLate" | "txTooEarly" | "txMalformed" | "txInsufficientFee" | "txNoAccount" | "txSorobanInvalid",
) {
  return new xdr.TransactionResult({ feeCharged: 0n, result: xdr.TransactionResultResult[code](), ext: xdr.TransactionResultExt.v0() });
}

export function transactionMeta(events: xdr.ContractEvent[], returnValue: xdr.ScVal | null): xdr.TransactionMeta {
  return xdr.TransactionMeta.v4(
    new xdr.TransactionMetaV4({
      ext: xdr.ExtensionPoint.v0(),
      txChangesBefore: [],
      operations: [new xdr.OperationMetaV2({ ext: xdr.ExtensionPoint.v0(), changes: [], events })],
      txChangesAfter: [],
      sorobanMeta: new xdr.SorobanTransactionMetaV2({ ext: xdr.SorobanTransactionMetaExt.v0(), returnValue }),
      events: [],
      diagnosticEvents: [],
    }),
  );
}

/** The hash the host returns for an invocation's result: sha256 of the return value's XDR. */
export const returnValueHash = (value: xdr.ScVal): Uint8Array => hash(value.toXDR());

// --- ledgers ----------------------------------------------------------------------------------------

export function ledgerHeader(sequence: number, closeTime: number): xdr.LedgerHeader {
  return new xdr.LedgerHeader({
    ledgerVersion: 23,
    previousLedgerHash: zeroHash(),
    scpValue: new xdr.StellarValue({
      txSetHash: zeroHash(),
      closeTime: BigInt(closeTime),
      upgrades: [],
      ext: xdr.StellarValueExt.stellarValueBasic(),
    }),
    txSetResultHash: zeroHash(),
    bucketListHash: zeroHash(),
    ledgerSeq: sequence,
    totalCoins: 1_000_000_000_000_000_000n,
    feePool: 0n,
    inflationSeq: 0,
    idPool: 0n,
    baseFee: 100,
    baseReserve: 5_000_000,
    maxTxSetSize: 1_000,
    skipList: [zeroHash(), zeroHash(), zeroHash(), zeroHash()],
    ext: xdr.LedgerHeaderExt.v0(),
  });
}

export function ledgerCloseMeta(header: xdr.LedgerHeader): xdr.LedgerCloseMeta {
  return xdr.LedgerCloseMeta.v0(
    new xdr.LedgerCloseMetaV0({
      ledgerHeader: new xdr.LedgerHeaderHistoryEntry({ hash: hash(header.toXDR()), header, ext: xdr.LedgerHeaderHistoryEntryExt.v0() }),
      txSet: new xdr.TransactionSet({ previousLedgerHash: zeroHash(), txs: [] }),
      txProcessing: [],
      upgradesProcessing: [],
      scpInfo: [],
    }),
  );
}
