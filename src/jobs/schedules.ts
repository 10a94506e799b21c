/**
 * Schedules (cron-like jobs) as graphile-worker's crontab items. graphile-worker schedules each tick once
 * across every runner on the database (the tick is claimed in `graphile_worker._private_known_crontabs`
 * by the runner that adds its job); each item also carries a job key, so at most one job per schedule is
 * pending (a tick while the last one still waits replaces it instead of piling up), and no backfill, so
 * ticks missed while no runner ran are not replayed (every scheduled task catches up by itself).
 */
import { parseCronItems, type CronItem, type ParsedCronItem } from "graphile-worker";
import type { TaskName } from "./names";

export interface Schedule {
  task: TaskName;
  /** a crontab pattern (minute hour day-of-month month day-of-week, UTC), e.g. "* /10 * * * *" without the space */
  cron: string;
  /** ticks missed this long ago (ms) are run when a runner starts; default 0: never */
  backfillMs?: number;
}

/** The job key a schedule's jobs carry (one pending job per schedule). */
export const scheduleJobKey = (task: TaskName) => `schedule:${task}`;

export function cronItems(schedules: readonly Schedule[]): ParsedCronItem[] {
  const items: CronItem[] = schedules.map((s) => ({
    task: s.task,
    match: s.cron,
    identifier: s.task,
    options: { backfillPeriod: s.backfillMs ?? 0, jobKey: scheduleJobKey(s.task), jobKeyMode: "replace" },
  }));
  return parseCronItems(items);
}
