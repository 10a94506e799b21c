/**
 * Text the PDF's built-in fonts can show. Helvetica and Courier (the PDF standard fonts: nothing to embed,
 * nothing to ship) encode WinAnsi (Windows-1252) only; pdfkit writes any other character as a wrong glyph.
 * So a character outside WinAnsi is first decomposed (NFKD: "ő" -> "o" + accent, "ﬁ" -> "fi") and its base
 * kept when WinAnsi has it; what remains unshowable (Greek, Cyrillic, CJK, emoji) prints as "?". The exact
 * text stays in the invoice's API record and in its ISO 20022 documents (UTF-8).
 */

/** Windows-1252's characters between 0x80 and 0x9f (the rest of WinAnsi is Latin-1: 0x20-0x7e, 0xa0-0xff). */
const WIN_ANSI_EXTRAS = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");

const showable = (ch: string): boolean => {
  const code = ch.codePointAt(0)!;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.has(ch);
};

const COMBINING_MARK = /\p{M}/u;

function substitute(ch: string): string {
  if (ch === "\n") return ch;
  if (/\s/.test(ch)) return " ";
  const decomposed = [...ch.normalize("NFKD")].filter((c) => !COMBINING_MARK.test(c));
  return decomposed.length > 0 && decomposed.every(showable) ? decomposed.join("") : "?";
}

/** `text` as the standard fonts can print it (see above). */
export function pdfText(text: string): string {
  let out = "";
  for (const ch of text.normalize("NFC")) out += showable(ch) ? ch : substitute(ch);
  return out;
}
