/**
 * Where an activated subscription's calendar starts, pure: a trial of `trialDays` whole days from `now`,
 * then paid periods anchored at the trial's end; without a trial, the first paid period starts now. The
 * anchor is where every later period is counted from (lib/period.ts), so a month-end start keeps its day.
 */
import { DAY_MS, periodAt, type Interval } from "../../../lib/period";

export interface FirstPeriod {
  /** null without a trial */
  trialEnd: Date | null;
  /** where paid periods start: now, or the trial's end */
  anchor: Date;
  /** the end of what activation covers: the trial, or the first paid period */
  periodEnd: Date;
}

export function firstPeriod(now: Date, trialDays: number, interval: Interval): FirstPeriod {
  const trialEnd = trialDays > 0 ? new Date(now.getTime() + trialDays * DAY_MS) : null;
  const anchor = trialEnd ?? now;
  const periodEnd = trialEnd ?? new Date(periodAt(anchor.getTime(), interval, 0).end);
  return { trialEnd, anchor, periodEnd };
}
