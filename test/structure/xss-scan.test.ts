/**
 * Every value a page prints is escaped: @kitajs/html prints a JSX child raw unless its element has `safe`
 * (docs/dashboard.md#escaping), so @kitajs/ts-html-plugin's scanner reads every .tsx file of src/ and any
 * child it cannot prove safe fails here (and in `npm test`). test/dashboard-ui/hostile-values.test.ts checks
 * the same in a browser, with hostile values stored through the API.
 */
import { expect, test } from "bun:test";
import { Glob } from "bun";
import { ROOT } from "./source";

test("xss-scan finds no unescaped child in the pages (.tsx under src/)", async () => {
  const files = [...new Glob("src/**/*.tsx").scanSync(ROOT)].sort();
  expect(files.length).toBeGreaterThan(0);
  const scan = Bun.spawn([process.execPath, `${ROOT}/node_modules/@kitajs/ts-html-plugin/dist/cli.js`, ...files], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
  });
  const [out, err, code] = await Promise.all([new Response(scan.stdout).text(), new Response(scan.stderr).text(), scan.exited]);
  expect({ code, report: `${out}${err}`.trim() }).toEqual({ code: 0, report: `No XSS vulnerabilities found in ${files.length} files!` });
}, 30_000);
