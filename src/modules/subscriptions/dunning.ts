/**
 * The dunning schedule, pure: after the n-th failed attempt to collect a period (n from 1), the next try is
 * `retryHours[n-1]` hours after the period's renewal (its start), not after the failure, so a slow job never
 * stretches the schedule; past the last entry, the subscription is canceled. With the default {24,72,168}:
 * retries at +1 d, +3 d and +7 d, canceled when the +7 d retry fails.
 */
export type DunningStep = { kind: "retry"; at: Date } | { kind: "cancel" };

export function nextDunningStep(failures: number, retryHours: readonly number[], periodStart: Date, now: Date): DunningStep {
  const hours = retryHours[failures - 1];
  if (hours === undefined) return { kind: "cancel" };
  const at = new Date(periodStart.getTime() + hours * 3_600_000);
  return { kind: "retry", at: at > now ? at : now };
}
