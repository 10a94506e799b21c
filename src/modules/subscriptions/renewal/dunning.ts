/**
 * The dunning schedule, pure: after the n-th failed attempt to collect a period (n from 1), the next try is
 * planned `retryHours[n-1]` hours after the period's renewal (its start), so a slow job never stretches the
 * schedule; past the last entry, the subscription is canceled. With the default {24,72,168}: retries at
 * +1 d, +3 d and +7 d, canceled when the +7 d retry fails.
 *
 * A retry never follows the failure before it sooner than the schedule spaces those two attempts
 * (`retryHours[n-1] - retryHours[n-2]`, the first entry for the first retry). Without that floor, a renewal
 * that ran late (the service down over the renewal date, or a period that started on a short month's last day
 * and was first tried two days in) found its planned retries already past and tried again at once, twice in
 * a row: the payer got back-to-back pulls and no time to top up, and the attempt count depended on the
 * calendar. The floor moves a late schedule later; it never drops a retry.
 */
export type DunningStep = { kind: "retry"; at: Date } | { kind: "cancel" };

const HOUR_MS = 3_600_000;

export function nextDunningStep(failures: number, retryHours: readonly number[], periodStart: Date, now: Date): DunningStep {
  const hours = retryHours[failures - 1];
  if (hours === undefined) return { kind: "cancel" };
  const planned = periodStart.getTime() + hours * HOUR_MS;
  const gapHours = hours - (retryHours[failures - 2] ?? 0);
  const earliest = now.getTime() + gapHours * HOUR_MS;
  return { kind: "retry", at: new Date(Math.max(planned, earliest)) };
}
