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

export type IdPrefix = "team" | "key" | "comp" | "user" | "dsess" | "aud" | "req" | "evt" | "plan" | "cflag" | "ent" | "cgr" | "tok" | "plink" | "cs" | "pay";

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomToken(24)}`;
}
