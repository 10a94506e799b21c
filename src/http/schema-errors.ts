/**
 * What a schema failure says in a 400's `details`: the field (src/lib/field-path.ts) and what was expected.
 * A schema's own `x-expected` wins; a union's or a number's expectation is read from the schema, because
 * TypeBox's stock message there describes its internals ("Expected union value" for a nullable string, a list
 * of literals, or a number that may come as a decimal string). Used by the routes (errors.ts) and by callers that skip the route (the CLI), so
 * both name the same field with the same words.
 */
import type { TSchema } from "elysia";
import { Value } from "@sinclair/typebox/value";
import { apiError } from "../lib/errors";
import { fieldPath } from "../lib/field-path";
import { unknownFields } from "./unknown-fields";

export interface DescribedSchema {
  "x-expected"?: string;
  "x-field"?: string;
  type?: string;
  const?: unknown;
  anyOf?: DescribedSchema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

function numberPhrase(s: DescribedSchema): string {
  const what = s.type === "integer" ? "an integer" : "a number";
  if (s.minimum !== undefined && s.maximum !== undefined) return `${what} from ${s.minimum} to ${s.maximum}`;
  if (s.minimum !== undefined) return `${what} of at least ${s.minimum}`;
  if (s.maximum !== undefined) return `${what} of at most ${s.maximum}`;
  return what;
}

function stringPhrase(s: DescribedSchema): string | undefined {
  if (s.pattern !== undefined) return undefined; // a pattern says what it wants only to a regex reader: give it x-expected
  const what = s.format === "email" ? "an email address" : s.format === undefined ? "a string" : `a string in ${s.format} format`;
  if (s.minLength !== undefined && s.maxLength !== undefined)
    return s.minLength === 0 ? `${what} of at most ${s.maxLength} characters` : `${what} of ${s.minLength} to ${s.maxLength} characters`;
  if (s.maxLength !== undefined) return `${what} of at most ${s.maxLength} characters`;
  if (s.minLength !== undefined) return `${what} of at least ${s.minLength} characters`;
  return what;
}

const isNumber = (s: DescribedSchema) => s.type === "integer" || s.type === "number";
// Elysia reads a number from a query or form as a union of the number and a string in its format.
const isNumericString = (s: DescribedSchema) => s.type === "string" && (s.format === "numeric" || s.format === "integer");

/** What a value of `s` is, in words ("a string of at most 200 characters or null"), or undefined. */
function phrase(s: DescribedSchema): string | undefined {
  if (s["x-expected"]) return s["x-expected"].replace(/^Expected /, "");
  if (s.const !== undefined) return String(s.const);
  if (s.anyOf) {
    const branches = s.anyOf;
    if (branches.every((b) => b.const !== undefined)) return `one of: ${branches.map((b) => String(b.const)).join(", ")}`;
    const numeric = branches.find(isNumber);
    if (numeric && branches.every((b) => b === numeric || isNumericString(b))) return numberPhrase({ ...numeric, ...pick(s) });
    const parts = branches.filter((b) => b.type !== "null").map(phrase);
    if (parts.some((p) => p === undefined)) return undefined;
    return [...parts, ...(branches.some((b) => b.type === "null") ? ["null"] : [])].join(" or ");
  }
  if (isNumber(s)) return numberPhrase(s);
  if (s.type === "string") return stringPhrase(s);
  if (s.type === "boolean") return "true or false";
  return undefined;
}

/** Bounds Elysia puts on a coercing union rather than on its number branch. */
const pick = (s: DescribedSchema): DescribedSchema =>
  Object.fromEntries(Object.entries({ minimum: s.minimum, maximum: s.maximum }).filter(([, v]) => v !== undefined));

/**
 * The expectation for a value that failed `schema` with TypeBox's `message`: the schema's `x-expected`, else
 * words read from a union, a number or an email field (the stock messages that say nothing useful), else the
 * stock message (plain strings, objects and arrays: "Expected string length less or equal to 64").
 */
export function expectedOf(schema: DescribedSchema | undefined, message: string | undefined): string {
  if (schema?.["x-expected"]) return schema["x-expected"];
  const words = schema && (schema.anyOf || isNumber(schema) || schema.format === "email") ? phrase(schema) : undefined;
  return words ? `Expected ${words}` : message || "Invalid value";
}

/**
 * `value` checked against `schema` as a route checks its body (root "body") or query ("query"), for callers
 * that skip the route (the CLI): one 400 naming each bad field as the route would. Fields left undefined are
 * absent. Answers the value as the schema's type.
 */
export function checkSchema<T>(schema: TSchema, value: Record<string, unknown>, root: "body" | "query"): T {
  const defined = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
  // A body's unknown fields are refused as the routes refuse them (unknown-fields.ts).
  const details: Record<string, string> = root === "body" ? unknownFields(schema, defined, root) : {};
  for (const e of Value.Errors(schema, defined)) details[fieldPath(root, e.path, defined)] ??= expectedOf(e.schema as DescribedSchema, e.message);
  if (Object.keys(details).length) throw apiError("validation_failed", "Validation failed", details);
  return defined as T;
}

export const checkBody = <T>(schema: TSchema, value: Record<string, unknown>): T => checkSchema<T>(schema, value, "body");
