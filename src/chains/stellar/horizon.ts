/**
 * The one Horizon call the adapter makes: `GET /transactions/{hash}`. Only the fields the verifier needs
 * are read, and of those only `ledger` is taken on Horizon's word (it is not in the XDR). Everything
 * else that matters is decoded from `envelope_xdr` / `result_xdr` by the caller, so a Horizon (or a
 * proxy in front of it) that summarises the transaction wrongly cannot make a payment look right.
 */
import { refuse, type PaymentRefusal } from "../types";

export const HORIZON_TIMEOUT_MS = 10_000;

/** The subset of Horizon's transaction resource we read. */
export interface HorizonTransaction {
  ledger: number;
  successful: boolean;
  envelope_xdr: string;
  result_xdr: string;
}

export type HorizonLookup = { ok: true; tx: HorizonTransaction } | PaymentRefusal;

/**
 * 404 is `not_found` (unknown, or not yet in a closed ledger: retryable). A refused connection, a
 * timeout, a 5xx, a 429, or a 200 whose body is not the resource all become `rpc_unavailable`: the
 * endpoint, not the transaction, is at fault. Never throws.
 */
export async function fetchTransaction(horizonUrl: string, hash: string, timeoutMs = HORIZON_TIMEOUT_MS): Promise<HorizonLookup> {
  let response: Response;
  let body: string;
  try {
    const url = new URL(`transactions/${hash}`, horizonUrl.endsWith("/") ? horizonUrl : `${horizonUrl}/`);
    response = await fetch(url, {
      headers: { accept: "application/hal+json, application/json" },
      signal: AbortSignal.timeout(timeoutMs),
    });
    // Read the body under the same deadline; a stalled body is as bad as a stalled connect.
    body = await response.text();
  } catch {
    return refuse("rpc_unavailable", "Horizon could not be reached in time");
  }
  if (response.status === 404) return refuse("not_found", "Horizon does not know this transaction (yet)");
  if (!response.ok) return refuse("rpc_unavailable", `Horizon answered HTTP ${response.status}`);
  const tx = parseTransaction(body);
  return tx ? { ok: true, tx } : refuse("rpc_unavailable", "Horizon answered with something other than a transaction");
}

function parseTransaction(body: string): HorizonTransaction | null {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof json !== "object" || json === null) return null;
  const { ledger, successful, envelope_xdr, result_xdr } = json as Record<string, unknown>;
  if (typeof ledger !== "number" || !Number.isSafeInteger(ledger) || ledger <= 0) return null;
  if (typeof successful !== "boolean" || typeof envelope_xdr !== "string" || typeof result_xdr !== "string") return null;
  return { ledger, successful, envelope_xdr, result_xdr };
}
