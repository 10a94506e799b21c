/**
 * The dashboard in a real browser: the service on a port of its own (the test app's deps: a cloned database, the
 * test clock), and Debian's Chromium driven by playwright-core. Chromium is a system package, not an npm one:
 * when it is missing the tests fail and say how to install it (`.ci/run` does, on a new machine).
 * Every Chromium this file starts is closed after the file's tests, whether they passed or not.
 */
import { afterAll } from "bun:test";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { chromium, type Browser, type Page } from "playwright-core";
import { serverFetch } from "../../src/app";
import { createTestApp, type TestApp } from "./app";
import { chromiumPath } from "./chromium";

/** Headless, and nothing that phones home (a closed network refuses it, many connections at a time). */
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
/** A browser test's time limit when run alone (`bun test` allows 5 s; `npm test` gives every test 30 s): a loaded machine is slow. */
export const BROWSER_TEST_MS = 30_000;
/**
 * Where the screenshots go: .data/test/screenshots (not in git) on every run, so a test run leaves the checkout as
 * it was; `SCREENSHOTS_DIR=docs/screenshots` refreshes the committed set (docs/dashboard.md#screenshots).
 */
export const SCREENSHOTS = `${import.meta.dir}/../../${process.env.SCREENSHOTS_DIR ?? ".data/test/screenshots"}`;

export interface DashboardBed {
  t: TestApp;
  /** http://127.0.0.1:<port> */
  base: string;
  browser: Browser;
  /** a fresh browser profile (no cookies) on a page of its own */
  newPage(options?: { width?: number; height?: number }): Promise<Page>;
  /** what the pages' Content-Security-Policy blocked, on every page of this file (an inline script or style, another origin) */
  blocked: string[];
}

/** Our own Chromium processes still alive (children of this process), by pid. */
function chromiumChildren(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [, name, rest] = /^\d+ \((.*)\) (.*)$/s.exec(stat) ?? [];
      if (name?.startsWith("chrom") && Number(rest?.split(" ")[1]) === process.pid) pids.push(Number(entry));
    } catch {}
  }
  return pids;
}

/** Kills what is left of our Chromium (its process group: the renderers and helpers with it). */
function killChromium() {
  for (const pid of chromiumChildren()) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
  }
}

/**
 * `settings`: environment settings of the service under test beside the bed's own (`WEBHOOK_ALLOW_HTTP: "true"`);
 * `app`: a test app made by a bed of its own instead (a chain's, say: test/helpers/escrow.ts), created with
 * DASHBOARD_COOKIE_SECURE=false.
 */
export async function startDashboard(settings: Record<string, string> = {}, app?: TestApp): Promise<DashboardBed> {
  const executablePath = chromiumPath();
  // The browser starts while the database is cloned. Its cleanup is registered before anything can fail, and
  // the process's exit kills what is left even when a file dies before its hooks run.
  const launching = chromium.launch({ executablePath, args: FLAGS, timeout: 15_000 });
  process.once("exit", killChromium);
  let server: ReturnType<typeof Bun.serve> | undefined;
  afterAll(async () => {
    const browser = await launching.catch(() => null);
    if (browser) await Promise.race([browser.close(), Bun.sleep(5_000)]);
    killChromium();
    server?.stop(true);
  });
  const [t, browser] = await Promise.all([app ?? createTestApp({ ...settings, DASHBOARD_COOKIE_SECURE: "false" }), launching]);
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: serverFetch(t.deps, t.app) });
  mkdirSync(SCREENSHOTS, { recursive: true });
  const base = `http://127.0.0.1:${server.port}`;
  const blocked: string[] = [];
  return {
    t,
    base,
    browser,
    blocked,
    newPage: async ({ width = 1280, height = 800 } = {}) => {
      // A context per page: its own cookies, and what @axe-core/playwright needs (it refuses browser.newPage()).
      const context = await browser.newContext({ viewport: { width, height }, baseURL: base });
      const page = await context.newPage();
      page.on("console", (message) => {
        if (message.text().includes("Content Security Policy")) blocked.push(`${page.url()}: ${message.text()}`);
      });
      return page;
    },
  };
}

/** Serious and critical accessibility violations on the page as it is now (axe-core), by rule and nodes. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join("; ")})`);
}

/** A full-page screenshot into SCREENSHOTS/<name>.png (docs/dashboard.md#screenshots). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
}

/** Signs in through the sign-in page (landing on the overview), then opens the API keys page. */
export async function signInThroughPage(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/dashboard/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL("**/dashboard/overview");
  // The pages' tests start from the keys page (it was the landing page before the overview existed).
  await page.goto("/dashboard/api-keys");
}
