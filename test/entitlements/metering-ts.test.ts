/** TypeScript against the table of metering cases: `decide` gives each outcome, `inBurnOrder` each burn. */
import { expect, test } from "bun:test";
import { METERING_CASES } from "./metering-cases";
import { expectedOf, tsResult } from "./metering-ts";

const NOW = Date.UTC(2026, 2, 14, 12);
const ANCHOR = Date.UTC(2025, 10, 3, 9);

for (const c of METERING_CASES) {
  test(c.name, () => {
    const { outcome, usedAfter, lotsAfter } = tsResult(c, "cflag_rules", ANCHOR, NOW);
    expect({ outcome, usedAfter, lotsAfter }).toEqual(expectedOf(c));
  });
}
