/**
 * Log lines buffered when the process ends are written: `flushSync` writes before it
 * returns, so an `exit` or crash handler loses nothing, where the buffered asynchronous flush never ran.
 */
import { expect, test } from "bun:test";

const LOGGER = new URL("../../src/lib/logger.ts", import.meta.url).pathname;

async function run(script: string) {
  const child = Bun.spawn(["bun", "-e", `import { Logger } from ${JSON.stringify(LOGGER)};\n${script}`], { stdout: "pipe", stderr: "pipe" });
  const [out, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  return {
    lines: out
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l).msg),
    code,
  };
}

test("lines still buffered at exit reach stdout through flushSync", async () => {
  const { lines, code } = await run(`
    const logger = new Logger("info");
    process.on("exit", () => logger.flushSync());
    logger.info("first"); logger.warn("second");
    process.exit(3);`);
  expect({ lines, code }).toEqual({ lines: ["first", "second"], code: 3 });
});

test("without it they are lost: the buffer is written on an interval the exit never reaches", async () => {
  const { lines } = await run(`
    const logger = new Logger("info");
    logger.info("first");
    process.exit(0);`);
  expect(lines).toEqual([]);
});

test("a crash handler logs the error after what was buffered, in order", async () => {
  const { lines, code } = await run(`
    const logger = new Logger("info");
    process.on("uncaughtException", (e) => { logger.error("uncaught error", { error: e.message }); logger.flushSync(); process.exit(1); });
    logger.info("before");
    setTimeout(() => { throw new Error("boom"); }, 0);`);
  expect({ lines, code }).toEqual({ lines: ["before", "uncaught error"], code: 1 });
});
