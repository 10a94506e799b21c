/** Identifiers and random tokens: type-prefixed ids (`key_`, `comp_`, ...) from the web crypto RNG. */
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A base62 string of `length` characters; rejection sampling keeps every character equally likely. */
export function randomToken(length: number): string {
  let out = "";
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const b of bytes) {
      if (b < 248 && out.length < length) out += ALPHABET[b % 62];
    }
  }
  return out;
}

export type IdPrefix =
  | "team"
  | "key"
  | "comp"
  | "user"
  | "dsess"
  | "aud"
  | "req"
  | "evt"
  | "plan"
  | "cflag"
  | "ent"
  | "cgr"
  | "tok"
  | "plink"
  | "cs"
  | "pay"
  // dashboard sign-in: operators, team members, invitations, one-time sign-in links
  | "op"
  | "mem"
  | "inv"
  | "link"
  | "coupon"
  | "cpred"
  | "wh"
  | "msg"
  | "dlv"
  | "ntf"
  // invoices: invoices, credit notes, refunds, invoice deliveries, customer balance entries
  | "in"
  | "cn"
  | "re"
  | "idl"
  | "cbe"
  // subscriptions: subscriptions, mandates (the spec's mnd_), subscription chain operations
  | "sub"
  | "mnd"
  | "sch"
  // a plan change's quote (src/modules/subscriptions/plan-change/quotes.ts)
  | "quo"
  // a verified zkTLS proof (src/modules/proofs)
  | "zkp"
  // an escrow reservation (src/modules/escrow)
  | "esc"
  // Auto-topup (docs/agents.md#auto-topup): configurations, funding mandates, dispatches
  | "atc"
  | "fmd"
  | "atd"
  // x402: a credit pack, an x402 payment
  | "cpk"
  | "x4p";

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomToken(24)}`;
}

/**
 * A type-prefixed id whose first 8 characters are the creation time in ms (base62 in ASCII order, good
 * until the year 8888), then 16 random ones: rows inserted together land side by side in the primary-key
 * index instead of on random pages, which keeps a growing table's inserts to a few hot index pages
 * (in byte order: events.id is collated "C", migration 00007).
 */
export function newTimeOrderedId(prefix: IdPrefix, now = Date.now()): string {
  let time = "";
  for (let t = Math.max(0, Math.floor(now)), i = 0; i < 8; i++, t = Math.floor(t / 62)) time = ALPHABET[t % 62] + time;
  return `${prefix}_${time}${randomToken(16)}`;
}
