/**
 * How an integer may be spelled as a string (query parameters always, and JSON bodies where Elysia's
 * `t.Integer` takes "an integer, or a string of one"): decimal digits with an optional minus sign, and
 * leading zeros read as written. Elysia's own check is `Number.isInteger(+value)`, which reads "0x10" as
 * 16, "1e3" as 1000, "0b11" as 3 and " 5", "+5" or "5.0" as 5: input the service would act on as a
 * number the caller never wrote. Whole numbers of magnitude 2^53 or more are refused as in JSON bodies
 * (src/lib/storable-input.ts): a double would already have lost their digits.
 *
 * TypeBox keeps formats in one registry and Elysia fills a slot only when it is empty, so replacing the
 * slot once at load is the one place this rule lives; compiled validators look the format up on every check.
 */
import { FormatRegistry } from "@sinclair/typebox";
import "elysia"; // Elysia registers its "integer" format when it loads: load it first, then replace it

const DECIMAL_INTEGER = /^-?[0-9]+$/;

FormatRegistry.Set("integer", (value) => DECIMAL_INTEGER.test(value) && Number.isSafeInteger(Number(value)));
