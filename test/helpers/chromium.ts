/**
 * Where the dashboard's browser tests find Debian's Chromium, a system package rather than an npm one. `npm test`
 * (test/run.ts) installs it first on a machine without it, when it may (root, with apt-get), so the README's test
 * command sets itself up; otherwise the browser tests fail and say how to install it.
 */
import { existsSync } from "node:fs";

const CHROMIUM = ["/usr/bin/chromium", "/usr/lib/chromium/chromium"];
const INSTALL = ["sh", "-c", "apt-get update && apt-get install -y --no-install-recommends chromium"];

export function chromiumPath(candidates: readonly string[] = CHROMIUM): string {
  const found = candidates.find((p) => existsSync(p));
  if (!found)
    throw new Error(
      `The dashboard's browser tests need Debian's Chromium (looked for ${candidates.join(", ")}). Install it: ` +
        "apt-get update && apt-get install -y --no-install-recommends chromium",
    );
  return found;
}

/** Installs Chromium when none is there and this process may (root, apt-get on PATH); says what it did. */
export async function ensureChromium(log: (line: string) => void): Promise<void> {
  if (CHROMIUM.some((p) => existsSync(p))) return;
  if (process.getuid?.() !== 0 || !Bun.which("apt-get")) {
    log("Chromium is missing and cannot be installed from here (root and apt-get needed): the browser tests will say how.\n");
    return;
  }
  log("Installing Debian's Chromium for the dashboard's browser tests (apt-get) ...\n");
  const install = Bun.spawn(INSTALL, { stdout: "ignore", stderr: "pipe" });
  if ((await install.exited) !== 0) log(`apt-get could not install Chromium: ${(await new Response(install.stderr).text()).slice(-500)}\n`);
}
