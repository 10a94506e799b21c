/**
 * The retry schedule (Standard Webhooks' recommendation, reaching about a day): after the first attempt,
 * retries are due about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h after it, each gap
 * jittered by +/-10% so the endpoints of one outage are not all retried in the same second. Ten attempts
 * in all; the tenth failing fails the delivery.
 */
const S = 1000;
const M = 60 * S;
const H = 60 * M;

/** When retry n (1-based) is due, counted from the first attempt. */
export const RETRY_OFFSETS_MS = [5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 14 * H, 20 * H, 24 * H] as const;
export const MAX_ATTEMPTS = RETRY_OFFSETS_MS.length + 1;
export const JITTER = 0.1;

/** The wait after failed attempt `attempt` (1-based) before the next; null after the last. `random` in [0, 1). */
export function retryDelayMs(attempt: number, random: number): number | null {
  if (attempt < 1 || attempt >= MAX_ATTEMPTS) return null;
  const gap = RETRY_OFFSETS_MS[attempt - 1]! - (attempt >= 2 ? RETRY_OFFSETS_MS[attempt - 2]! : 0);
  return Math.round(gap * (1 + JITTER * (2 * random - 1)));
}
