/**
 * Where a test's clock starts: `TEST_NOW` (an ISO 8601 instant, e.g. 2027-01-31T23:30:00Z) or, unset, the wall
 * clock when the clock is made. Billing rules turn on calendar edges (month ends, leap days), so the suite runs
 * again at fixed instants (package.json `test:dates`) and must pass at any of them; a test never reads the wall
 * clock for a date the service decides with.
 */
import { ManualClock } from "../../src/lib/clock";

const fixed = parseTestNow(process.env.TEST_NOW);

function parseTestNow(value: string | undefined): number | null {
  if (value === undefined || value === "") return null;
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(value) || Number.isNaN(ms))
    throw new Error(`TEST_NOW must be an ISO 8601 instant in UTC such as 2027-01-31T23:30:00Z, not ${JSON.stringify(value)}`);
  return ms;
}

/** The instant a test starts from, in milliseconds. */
export const testNow = (): number => fixed ?? Date.now();

/** Whether TEST_NOW fixed the start (local chains then start their own clocks there too). */
export const testNowIsFixed = (): boolean => fixed !== null;

/** A clock only the test moves, starting at testNow(). */
export const newTestClock = (): ManualClock => new ManualClock(testNow());
