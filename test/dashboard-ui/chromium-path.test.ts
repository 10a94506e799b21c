/** The browser tests find Debian's Chromium, or fail saying how to install it: never a silent skip. */
import { expect, test } from "bun:test";
import { chromiumPath } from "../helpers/chromium";

test("a missing Chromium fails with the command that installs it", () => {
  expect(() => chromiumPath(["/nonexistent/chromium"])).toThrow(
    "The dashboard's browser tests need Debian's Chromium (looked for /nonexistent/chromium). Install it: apt-get update && apt-get install -y --no-install-recommends chromium",
  );
});

test("this machine has it where Debian puts it", () => {
  expect(["/usr/bin/chromium", "/usr/lib/chromium/chromium"]).toContain(chromiumPath());
});
