/**
 * The on-chain window of an EVM period allowance: the SHORTEST length of a billing period (28 days for
 * monthly, 365 for yearly). Calendar periods (src/lib/period.ts) are never shorter, so every renewal falls in
 * a fresh window, and the contract still stops a second full pull inside one period.
 */
import type { Interval } from "../../lib/period";

const DAY_S = 86_400;
export const windowSeconds = (interval: Interval): number => (interval === "monthly" ? 28 : 365) * DAY_S;
