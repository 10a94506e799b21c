/**
 * Non-canonical spellings of a base64url-signed value (`…segment.signature`): each decodes, with a lenient
 * decoder, to the very bytes of the original signature, yet only the original spelling may be accepted.
 */
import { expect } from "bun:test";

const URL_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const lenient = (text: string) =>
  (Uint8Array as unknown as { fromBase64(t: string, o: object): Uint8Array }).fromBase64(text, { alphabet: "base64url" });

export function nonCanonicalSpellings(value: string): Record<string, string> {
  const dot = value.lastIndexOf(".");
  const head = value.slice(0, dot + 1);
  const signature = value.slice(dot + 1);
  // A 32-byte HMAC is 43 characters: the last one carries two unused low bits.
  expect(signature.length % 4).toBe(3);
  const last = URL_ALPHABET.indexOf(signature.at(-1)!);
  const flipped = signature.slice(0, -1) + URL_ALPHABET[last ^ 1];
  expect(lenient(flipped)).toEqual(lenient(signature));
  const variants = {
    "one = of padding": `${value}=`,
    "two = of padding": `${value}==`,
    "non-zero trailing bits in the last character": `${head}${flipped}`,
  };
  for (const spelled of Object.values(variants)) expect(spelled).not.toBe(value);
  return variants;
}

/** The value with its signature in the standard alphabet (`+` and `/`), or null when it has neither `-` nor `_`. */
export function standardAlphabetSpelling(value: string): string | null {
  const dot = value.lastIndexOf(".");
  const signature = value.slice(dot + 1);
  if (!/[-_]/.test(signature)) return null;
  return value.slice(0, dot + 1) + signature.replace(/-/g, "+").replace(/_/g, "/");
}

/** Mints values until one's signature has a `-` or `_` (a 43-character signature has neither about one time in four). */
export async function withStandardAlphabetSpelling(mint: () => Promise<string>): Promise<{ value: string; spelled: string }> {
  for (let i = 0; i < 20; i++) {
    const value = await mint();
    const spelled = standardAlphabetSpelling(value);
    if (spelled) return { value, spelled };
  }
  throw new Error("no signature with - or _ in 20 mints");
}
