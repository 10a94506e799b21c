/**
 * What pain.013 and camt.054 share: amounts at the schemas' five fractional digits, bounded texts,
 * message ids, the parties and the wallet accounts.
 *
 * Decisions (docs/invoices.md#iso-20022-mapping): an amount element carries the invoice amount rounded half away
 * from zero to 5 digits (the service's one rounding rule) and the exact six-digit amount is written in
 * the remittance text beside it. Texts are cut to the schema's length (a name past 140 characters ends in
 * "…"); characters XML 1.0 cannot carry become spaces. A wallet is an account identified by
 * `Othr/Id`, which holds at most 34 characters: shorter wallets stand there as they are, longer ones
 * (EVM: 42, Stellar: 56) in the abbreviated form wallets are shown in (`0x5e5e5e5e5e5e5e5e…5e5e5e5e5e5e5e5e`),
 * with the whole address in `Prxy/Id` (up to 2048 characters) and the scheme naming the network.
 */
import { divRound, formatFixed, parseFixed, SIGNED_MICRO } from "../../../lib/money";
import type { Seller } from "./source";

export const ISO_AMOUNT_DECIMALS = 5;

/** Micro-units from the API's six-digit decimal string (the documents are built from the API's record). */
export function microOf(decimal: string): bigint {
  const parsed = parseFixed(decimal, SIGNED_MICRO);
  if (!parsed.ok) throw new RangeError(`not an invoice amount: ${decimal}`);
  return parsed.value;
}

/** An amount element's text: micro-units at five fractional digits, half away from zero. */
export const isoAmount = (micro: bigint): string => formatFixed(divRound(micro, 10n), ISO_AMOUNT_DECIMALS);

// XML 1.0 forbids C0 controls other than tab, newline and carriage return, and unpaired surrogates.
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` as a MaxNText value: XML-safe, trimmed, at most `max` characters; undefined when empty. */
export function bounded(text: string | null | undefined, max: number): string | undefined {
  if (text == null) return undefined;
  const chars = [...text.replace(NOT_XML, " ").trim()];
  if (chars.length === 0) return undefined;
  return chars.length <= max ? chars.join("") : `${chars.slice(0, max - 1).join("")}…`;
}

/** A message id (Max35Text): the invoice id and the creation time, unique per generated document. */
export function messageId(invoiceId: string, now: Date): string {
  const stamp = Math.floor(now.getTime() / 1000).toString(36);
  return `${invoiceId.slice(0, 35 - 1 - stamp.length)}-${stamp}`;
}

export const isoDate = (iso: string) => iso.slice(0, 10);

/** Drops undefined members (an absent optional element), recursively, so builders can write `x: maybe`. */
export function pruned<T>(value: T): T {
  if (Array.isArray(value)) return value.map(pruned) as T;
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, pruned(v)]),
  ) as T;
}

/** An amount element: `{"@Ccy": "USD", "#": "12.50000"}`. */
export const amount = (micro: bigint, ccy: string) => ({ "@Ccy": ccy, "#": isoAmount(micro) });

const WALLET_ID_MAX = 34;
/** A wallet as Othr/Id can hold it (see the header). */
export function walletId(wallet: string): string {
  const chars = [...wallet];
  return chars.length <= WALLET_ID_MAX ? wallet : `${chars.slice(0, 16).join("")}…${chars.slice(-17).join("")}`;
}

/** A CashAccount38/39 for an on-chain wallet of `network`. */
export const walletAccount = (wallet: string, network: string | null) => ({
  Id: { Othr: { Id: walletId(wallet), SchmeNm: network ? { Prtry: bounded(network, 35) } : undefined } },
  Prxy: { Tp: { Prtry: "WALLET" }, Id: bounded(wallet, 2048) },
});

/** The network as the agent (FinInstnId/Othr/Id) that holds both wallets: the chain is the "bank". */
export const networkAgent = (network: string | null) => ({ FinInstnId: network ? { Othr: { Id: bounded(network, 35) } } : {} });

export interface PartyFields {
  name?: string | null;
  email?: string | null;
  address?: string | null;
  taxId?: string | null;
}

/** A PartyIdentification135: name, postal address lines, tax id (scheme TXID), email. */
export function party(p: PartyFields) {
  const lines = (p.address ?? "")
    .split(/\r?\n/)
    .map((l) => bounded(l, 70))
    .filter((l): l is string => l !== undefined)
    .slice(0, 7);
  const taxId = bounded(p.taxId, 35);
  const email = bounded(p.email, 2048);
  return {
    Nm: bounded(p.name, 140),
    PstlAdr: lines.length ? { AdrLine: lines } : undefined,
    Id: taxId ? { OrgId: { Othr: [{ Id: taxId, SchmeNm: { Cd: "TXID" } }] } } : undefined,
    CtctDtls: email ? { EmailAdr: email } : undefined,
  };
}

export const sellerParty = (s: Seller) => party({ name: s.name, email: s.email, address: s.address, taxId: s.taxId });
