/**
 * What a CLI command is: a name, its options (which also write its help), a pure `parse` that checks every
 * argument before the database is touched, and `run`, which calls the same service functions as the API
 * and returns the API's record shapes (the presenters in src/modules).
 */
import type { Sql } from "../db/client";
import type { Config } from "../config";

export interface OptionSpec {
  /** Placeholder shown in help, e.g. "<id>" or "true|false". */
  value: string;
  help: string;
  required?: boolean;
}

export type Options = Record<string, OptionSpec>;
export type Args = Record<string, string | undefined>;

export interface Context {
  sql: Sql;
  /** the database `sql` connects to (the job queue's migrations open their own connection) */
  databaseUrl: string;
  /** the process configuration (the secrets that seal webhook signing secrets, the webhook URL rules) */
  config: Config;
  now: number;
  /** Where this machine's API answers, for the copy-paste examples seed prints. */
  baseUrl: string;
}

export interface Command<Input = unknown> {
  /** One or two words: "seed", "key create". */
  name: string;
  summary: string;
  options: Options;
  /** Checks and converts the arguments; throws UsageError. Runs before any database connection. */
  parse(args: Args): Input;
  run(ctx: Context, input: Input): Promise<unknown>;
  /** The exit code for a result that is printed but is a failure (e.g. `audit verify` finding a break); default 0. */
  exitCode?(result: unknown): number;
  /** `migrate` applies migrations itself; every other command migrates first. */
  migrates?: boolean;
  /** The option that one argument right after the command fills (`invoice refund in_…` = `--invoice in_…`). */
  positional?: string;
}

/** Keeps `parse` and `run` of one command typed against each other inside a list of commands. */
export const command = <Input>(c: Command<Input>): Command => c as unknown as Command;

/** Bad arguments: printed as `{error}` on stderr, exit code 2. */
export class UsageError extends Error {}
