/**
 * What the escrow services need: the database, the chain registry and the worker pool (chain calls never run on the
 * request thread; escrow calls run in the worker that holds the EVM operator key), who acts and when.
 */
import type { ChainPool } from "../../chains/pool";
import type { Sql } from "../../db/client";
import type { Logger } from "../../lib/logger";
import type { ChainRegistry } from "../../lib/networks";
import type { Actor } from "../audit/repo";

export interface EscrowDeps {
  sql: Sql;
  chains: ChainRegistry;
  pool: ChainPool;
  /** where a chain answer the service will not record (it contradicts a settled row) is reported */
  logger?: Logger;
}

/** One escrow operation: the services, by whom, at which instant. */
export interface EscrowStep {
  deps: EscrowDeps;
  actor: Actor;
  now: Date;
}
