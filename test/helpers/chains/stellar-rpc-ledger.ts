/**
 * The double's ledger: accounts (sequence numbers, XLM), Stellar Asset Contracts with their balances and
 * allowances, and the SAC functions the subscription flow uses, with the SAC's own rules and error numbers
 * (soroban-env-host builtin_contracts: allowance.rs, contract_error.rs, event.rs). `call` never mutates
 * unless asked to, so simulation and application run the same code.
 */
import { Address, type Asset, nativeToScVal, scValToBigInt, xdr } from "@stellar/stellar-sdk";
import { allowanceDataKey, balanceKey, contractDataKey, instanceKey } from "./stellar-rpc-xdr";

/** SAC ContractError numbers. */
export const SAC = { negativeAmount: 8, allowance: 9, balance: 10, trustlineMissing: 13 } as const;
/** Soroban's max entry TTL on pubnet: an approval cannot live longer. */
const MAX_LIVE_LEDGERS = 3_110_400;

export interface Token {
  asset: Asset;
  /** the SEP-11 name the SAC puts in its events: "native" or "CODE:ISSUER" */
  name: string;
  /** credit assets: holder -> balance, present only where a trustline exists */
  balances: Map<string, bigint>;
  /** `${from}>${spender}` -> allowance */
  allowances: Map<string, { amount: bigint; liveUntil: number }>;
}

export interface Invocation {
  contractId: string;
  fn: string;
  args: xdr.ScVal[];
}

export type CallResult =
  | {
      ok: true;
      retval: xdr.ScVal;
      events: { topics: xdr.ScVal[]; data: xdr.ScVal }[];
      requiresAuth: string | null;
      readOnly: xdr.LedgerKey[];
      readWrite: xdr.LedgerKey[];
    }
  | { ok: false; error: string };

const fail = (code: number, why: string): CallResult => ({
  ok: false,
  error: `HostError: Error(Contract, #${code})\n\nEvent log (newest first):\n   0: ${why}`,
});
const addressOf = (val: xdr.ScVal | undefined): string | null => (val?.type === "scvAddress" ? Address.fromScVal(val).toString() : null);
const amountOf = (val: xdr.ScVal | undefined): bigint | null => (val?.type === "scvI128" ? scValToBigInt(val) : null);
const i128 = (value: bigint) => nativeToScVal(value, { type: "i128" });

export class DoubleLedger {
  sequence: number;
  accounts = new Map<string, { sequence: bigint; xlm: bigint }>();
  tokens = new Map<string, Token>();

  constructor(
    readonly passphrase: string,
    firstLedger: number,
  ) {
    this.sequence = firstLedger;
  }

  addToken(asset: Asset): string {
    const contractId = asset.contractId(this.passphrase);
    const name = asset.isNative() ? "native" : `${asset.getCode()}:${asset.getIssuer()}`;
    if (!this.tokens.has(contractId)) this.tokens.set(contractId, { asset, name, balances: new Map(), allowances: new Map() });
    return contractId;
  }

  balanceOf(token: Token, holder: string): bigint | null {
    if (token.asset.isNative()) return this.accounts.get(holder)?.xlm ?? null;
    return token.balances.get(holder) ?? null;
  }

  setBalance(token: Token, holder: string, amount: bigint): void {
    if (!token.asset.isNative()) token.balances.set(holder, amount);
    else this.accounts.get(holder)!.xlm = amount;
  }

  /** What the allowance reads as now: 0 past its last ledger, like the SAC's read_allowance. */
  allowanceOf(token: Token, from: string, spender: string): bigint {
    const stored = token.allowances.get(`${from}>${spender}`);
    return stored && stored.liveUntil >= this.sequence ? stored.amount : 0n;
  }

  /** Runs one SAC function; `apply` commits its effects. */
  call(invocation: Invocation, apply: boolean): CallResult {
    const token = this.tokens.get(invocation.contractId);
    if (!token) return { ok: false, error: "HostError: Error(Storage, MissingValue)\n\ncontract instance not found" };
    const [a0, a1, a2, a3] = invocation.args;
    const instance = instanceKey(invocation.contractId);
    const allowanceKey = (from: string, spender: string) => contractDataKey(invocation.contractId, allowanceDataKey(from, spender), "temporary");
    switch (`${invocation.fn}/${invocation.args.length}`) {
      case "allowance/2": {
        const [from, spender] = [addressOf(a0), addressOf(a1)];
        if (!from || !spender) return { ok: false, error: "HostError: Error(Value, UnexpectedType)" };
        const retval = i128(this.allowanceOf(token, from, spender));
        return { ok: true, retval, events: [], requiresAuth: null, readOnly: [instance, allowanceKey(from, spender)], readWrite: [] };
      }
      case "balance/1": {
        const id = addressOf(a0);
        if (!id) return { ok: false, error: "HostError: Error(Value, UnexpectedType)" };
        const balance = this.balanceOf(token, id);
        if (balance === null) return fail(SAC.trustlineMissing, "trustline entry is missing for account");
        return { ok: true, retval: i128(balance), events: [], requiresAuth: null, readOnly: [instance, balanceKey(id, token.asset)], readWrite: [] };
      }
      case "approve/4": {
        const [from, spender, amount] = [addressOf(a0), addressOf(a1), amountOf(a2)];
        if (!from || !spender || amount === null || a3?.type !== "scvU32") return { ok: false, error: "HostError: Error(Value, UnexpectedType)" };
        const liveUntil = a3.u32;
        if (amount < 0n) return fail(SAC.negativeAmount, "negative amount is not allowed");
        if (liveUntil > this.sequence + MAX_LIVE_LEDGERS) return fail(SAC.allowance, "live_until is greater than max");
        if (amount > 0n && liveUntil < this.sequence) return fail(SAC.allowance, "live_until must be >= ledger sequence");
        if (apply) token.allowances.set(`${from}>${spender}`, { amount, liveUntil });
        const events = [{ topics: [xdr.ScVal.scvSymbol("approve"), a0!, a1!, xdr.ScVal.scvString(token.name)], data: xdr.ScVal.scvVec([a2!, a3]) }];
        return { ok: true, retval: xdr.ScVal.scvVoid(), events, requiresAuth: from, readOnly: [instance], readWrite: [allowanceKey(from, spender)] };
      }
      case "transfer_from/4":
        return this.transferFrom(token, invocation, apply, [instance], allowanceKey);
      default:
        return { ok: false, error: `HostError: Error(WasmVm, MissingValue)\n\ntrying to invoke non-existent contract function ${invocation.fn}` };
    }
  }

  private transferFrom(
    token: Token,
    invocation: Invocation,
    apply: boolean,
    readOnly: xdr.LedgerKey[],
    allowanceKey: (f: string, s: string) => xdr.LedgerKey,
  ): CallResult {
    const [a0, a1, a2, a3] = invocation.args;
    const [spender, from, to, amount] = [addressOf(a0), addressOf(a1), addressOf(a2), amountOf(a3)];
    if (!spender || !from || !to || amount === null) return { ok: false, error: "HostError: Error(Value, UnexpectedType)" };
    if (amount < 0n) return fail(SAC.negativeAmount, "negative amount is not allowed");
    // The SAC's order: spend the allowance, then debit `from`, then credit `to`.
    const allowance = this.allowanceOf(token, from, spender);
    if (allowance < amount) return fail(SAC.allowance, "not enough allowance to spend");
    const fromBalance = this.balanceOf(token, from);
    if (fromBalance === null) return fail(SAC.trustlineMissing, "trustline entry is missing for account");
    if (fromBalance < amount) return fail(SAC.balance, "balance is not sufficient to spend");
    const toBalance = this.balanceOf(token, to);
    if (toBalance === null) return fail(SAC.trustlineMissing, "trustline entry is missing for account");
    if (apply) {
      const stored = token.allowances.get(`${from}>${spender}`)!;
      stored.amount -= amount;
      this.setBalance(token, from, fromBalance - amount);
      this.setBalance(token, to, this.balanceOf(token, to)! + amount);
    }
    const events = [{ topics: [xdr.ScVal.scvSymbol("transfer"), a1!, a2!, xdr.ScVal.scvString(token.name)], data: a3! }];
    const readWrite = [allowanceKey(from, spender), balanceKey(from, token.asset), balanceKey(to, token.asset)];
    return { ok: true, retval: xdr.ScVal.scvVoid(), events, requiresAuth: spender, readOnly, readWrite };
  }
}
