/**
 * `npm run test:dates`: the date-sensitive tests again with the test clock started at fixed instants where
 * calendars bite (a month's last half hour before a short month, a leap day). `npm test` runs everything at
 * the wall clock's now; this runs subscriptions (renewals, trials, dunning, plan changes), invoices (due dates,
 * overdue), quotas and credits, checkout expiry, the chain subscription adapters, and the pure calendar rules at
 * each instant in turn (test/helpers/clock.ts reads TEST_NOW). `.ci/run` runs it after `npm test`.
 * Exits with the first failing run's code. Extra arguments narrow the paths, as with `bun test`.
 */
export const INSTANTS = ["2027-01-31T23:30:00Z", "2028-02-29T12:00:00Z"];

export const DATE_SENSITIVE = [
  "test/lib",
  "test/config",
  "test/chains/chain-registry",
  "test/ratelimit/memory",
  "test/entitlements/entitlement-rules",
  "test/entitlements/metering",
  "test/entitlements/entitlements.test.ts",
  "test/subscriptions",
  "test/invoices",
  "test/chains/evm-subscription",
  "test/chains/solana-subscriptions",
  "test/chains/stellar-subscriptions",
  "test/events/events.test.ts",
  "test/events/events-atomic.test.ts",
  "test/catalog/coupons.test.ts",
  "test/payments/payments.test.ts",
];

if (import.meta.main) {
  const paths = process.argv.length > 2 ? process.argv.slice(2) : DATE_SENSITIVE;
  for (const instant of INSTANTS) {
    process.stdout.write(`\n== TEST_NOW=${instant} ==\n`);
    const run = Bun.spawn([process.execPath, "test", "--timeout", "30000", ...paths], {
      env: { ...process.env, TEST_NOW: instant },
      stdio: ["inherit", "inherit", "inherit"],
    });
    const code = await run.exited;
    if (code !== 0) process.exit(code);
  }
}
