/**
 * The `idempotencyKey` field of POST /events and POST /usage/consume: "at most 128 characters" (spec,
 * Limits), counted as characters (Unicode code points), as PostgreSQL's char_length counts them in the
 * events table's check. JSON Schema's maxLength counts UTF-16 code units, so an emoji would count twice:
 * the pattern counts a surrogate pair as one character, and maxLength only bounds the code units.
 */
import { t } from "elysia";

const MAX_CHARACTERS = 128;

export const IdempotencyKey = (description: string) =>
  t.String({
    minLength: 1,
    maxLength: MAX_CHARACTERS * 2,
    pattern: `^(?:[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]|[\\s\\S]){1,${MAX_CHARACTERS}}$`,
    description: `${description}. 1 to ${MAX_CHARACTERS} characters.`,
    "x-expected": `Expected 1 to ${MAX_CHARACTERS} characters`,
  });
