/**
 * A metered use as the meter takes it (MeterRequest: what the cached catalog decided to enforce, and who
 * the use is about) and answers it (MeterResult), shared by the meter (meter.ts), the identity writes of a
 * batch (identity.ts) and the statement's parameters (repo.ts).
 */
import type { TransactionSql } from "../../db/client";
import type { Environment } from "../../lib/tenant";
import type { Change } from "../changes/publish";

export type Outcome = "accepted" | "limit_reached" | "insufficient_credits" | "feature_not_enabled";

/** What to enforce for one request, decided from the cached catalog before it is queued. */
export type Enforcement =
  | { kind: "record" } // not a metered feature, or an unlimited one: record the event only
  | { kind: "deny" } // feature not enabled for the company: record the refusal
  | { kind: "quota"; periodStart: number; limit: bigint }
  | { kind: "credit"; creditsPerUse: bigint };

export interface MeterRequest {
  teamId: string;
  environment: Environment;
  source: "events" | "consume";
  name: string;
  companyId: string | null;
  userId: string | null;
  featureId: string | null;
  quantity: bigint;
  traits: Record<string, unknown>;
  idempotencyKey: string | null;
  enforcement: Enforcement;
  /** who the use is about, still to be written in the batch's transaction (null: nothing to write) */
  identity?: IdentityWrite | null;
}

/**
 * Writes a request carries into its batch's transaction, so that they commit with its event or not at
 * all. `before`: run before the batch is decided, whatever the outcome (a use that enforces nothing),
 * each in a savepoint, so that one request's failure fails it alone; the ids written go into its event.
 * `ifAccepted`: run after the decision, only for a use accepted (not a replay): a refusal writes nothing
 * about who it is about. Its user id is then set on the stored event; a failure there undoes the whole
 * batch, which is settled again without that request.
 */
export interface IdentityWrite {
  when: "before" | "ifAccepted";
  write(tx: TransactionSql): Promise<WrittenIdentity>;
}

export interface WrittenIdentity {
  companyId: string | null;
  userId: string | null;
  /** called once the batch has committed: tells this instance's caches */
  committed(): void;
}

export interface MeterResult {
  outcome: Outcome;
  eventId: string;
  companyId: string | null;
  userId: string | null;
  /** true when this answers a retry with the stored outcome of the first attempt */
  replayed: boolean;
}

/** A request's own failure: the batch's result for it, next to its neighbours' outcomes. */
export interface Failed {
  error: unknown;
}

export interface BatchSettlement {
  results: (MeterResult | Failed)[];
  changes: Change[];
  /** identity writes of the batch, to be told once it has committed */
  written: WrittenIdentity[];
}
