/** What the HTTP app needs from the process: built by src/index.ts, or by test/helpers for each test file. */
import type { Sql } from "./db/client";
import type { Config } from "./config";
import type { Clock } from "./lib/clock";
import type { Logger } from "./lib/logger";
import type { CredentialStore } from "./auth/credential-store";

export interface AppDeps {
  sql: Sql;
  config: Config;
  clock: Clock;
  logger: Logger;
  credentials: CredentialStore;
  tokenSigningSecret: string;
}
