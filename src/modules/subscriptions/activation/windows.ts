/**
 * The on-chain window of an EVM period allowance: the SHORTEST length of a billing period (28 days for
 * monthly, 365 for yearly). The contract's windows lie on a grid anchored at the first paid pull, so calendar
 * periods (src/lib/period.ts), never shorter, put every on-time renewal in a fresh window, a renewal paid late by a
 * dunning retry does not move the windows after it, and the contract still stops a second full pull inside one
 * window.
 */
import { DAY_MS, type Interval } from "../../../lib/period";

export const windowSeconds = (interval: Interval): number => ((interval === "monthly" ? 28 : 365) * DAY_MS) / 1000;
