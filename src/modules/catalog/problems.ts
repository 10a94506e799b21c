/**
 * Field-by-field validation for catalog writes: every problem of one request is collected, then one 400
 * `{error, details}` names them all (field path -> what was expected), before anything is written. The
 * routes' TypeBox schemas check shapes; these checks are the rules, shared by the routes and the CLI.
 */
import { apiError } from "../../lib/errors";
import { parseFixed, type FixedFormat } from "../../lib/money";

export class Problems {
  readonly details: Record<string, string> = {};

  constructor(
    /** Prefix of every field path: "body" for a route, the CLI's option names otherwise. */
    private readonly prefix = "body",
  ) {}

  path(field: string): string {
    return this.prefix ? `${this.prefix}.${field}` : field;
  }

  add(field: string, expected: string): void {
    this.details[this.path(field)] ??= expected;
  }

  get any(): boolean {
    return Object.keys(this.details).length > 0;
  }

  /** A fixed-point decimal string (money, percent), or null after recording why not. */
  fixed(field: string, text: unknown, format: FixedFormat, extra?: (value: bigint) => string | null): bigint | null {
    if (typeof text !== "string") {
      this.add(field, format.expected);
      return null;
    }
    const parsed = parseFixed(text, format);
    if (!parsed.ok) {
      this.add(field, parsed.expected);
      return null;
    }
    const refusal = extra?.(parsed.value);
    if (refusal) {
      this.add(field, refusal);
      return null;
    }
    return parsed.value;
  }

  /** Text of 1..max characters, not all whitespace. */
  text(field: string, value: unknown, max = 200): void {
    if (typeof value !== "string" || value.length < 1 || value.length > max || !/\S/.test(value))
      this.add(field, `Expected a string of 1 to ${max} characters, not all whitespace`);
  }

  integer(field: string, value: unknown, min: number, max: number): void {
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max)
      this.add(field, `Expected an integer from ${min} to ${max}`);
  }

  /** Throws the 400 when anything was recorded. */
  check(message = "Validation failed"): void {
    if (this.any) throw apiError("validation_failed", message, this.details);
  }
}
