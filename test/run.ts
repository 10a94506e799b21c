/**
 * `npm test`: the whole suite in TEST_JOBS `bun test` processes side by side (default: one more than the
 * cores), so one process's tests use a core while another's wait on PostgreSQL, anvil or a spawned CLI.
 *
 * The runner prepares the suite's PostgreSQL once (test/helpers/test-server.ts: the embedded server, the migrated
 * template) and names it to every process it starts in TEST_RUN_SERVER_URL (and itself in TEST_RUN_PID); each process clones its own databases from the
 * template (test/helpers/db.ts), so no two share a database. Files that run the service on the fixed ports of
 * test/helpers/service.ts (test/process/) all go to one process, one after another. Each process's output is
 * printed a file at a time (never two files' lines interleaved), then every failed test again and the totals.
 * Exits non-zero when any process fails. Ctrl-C or SIGTERM (to npm or to this process) reaches every process's
 * own process group (its anvil nodes and services with it), and the server is stopped once they have ended.
 *
 * Arguments as for `bun test`: paths (files, folders, or parts of a path) narrow the files; options (`-t name`,
 * `--bail` ...) are passed to every process. `bun test` alone still runs everything in one process.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { availableParallelism } from "node:os";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { watchParent } from "../src/lib/parent-watch";
import { prepareTestServer, setupFailure, type TestServer } from "./helpers/test-server";
import { ensureChromium } from "./helpers/chromium";

const TIMEOUT_MS = "30000";
/** Files that start the service on test/helpers/service.ts's ports: never two at once. */
const ONE_AT_A_TIME = /^test\/process\//;
const DURATIONS_FILE = ".data/test/durations.json";
/** Options of `bun test` that take a value (so the value is not read as a path). */
const VALUED = new Set(["-t", "--test-name-pattern", "--timeout", "--rerun-each", "--preload", "--seed", "--max-concurrency"]);

function testFiles(): string[] {
  const glob = new Bun.Glob("test/**/*.test.{ts,tsx,js,jsx,mjs}");
  return [...glob.scanSync({ cwd: process.cwd() })].map((f) => f.replaceAll("\\", "/")).sort();
}

/** Splits `bun test`'s arguments into path filters and options passed on to every process. */
function readArgs(argv: string[]): { filters: string[]; options: string[] } {
  const filters: string[] = [];
  const options: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith("-")) {
      options.push(arg);
      if (VALUED.has(arg) && i + 1 < argv.length) options.push(argv[++i]!);
    } else filters.push(arg.replace(/^\.\//, "").replace(/\/$/, ""));
  }
  return { filters, options };
}

/**
 * The last run's seconds per file (written by this runner). A file not timed yet weighs by its size, and a
 * test/process/ file, which waits on real services (up to a minute for a schedule's tick), as 25 s.
 */
function weights(files: string[]): Map<string, number> {
  let known: Record<string, number> = {};
  try {
    known = JSON.parse(readFileSync(DURATIONS_FILE, "utf8"));
  } catch {}
  return new Map(files.map((f) => [f, known[f] ?? (ONE_AT_A_TIME.test(f) ? 25 : statSync(f).size / 5_000)]));
}

/** Longest first onto the least loaded process; the one-at-a-time files together on one process. */
function split(files: string[], jobs: number): string[][] {
  const weight = weights(files);
  const shards = Array.from({ length: jobs }, () => ({ files: [] as string[], load: 0 }));
  const serial = files.filter((f) => ONE_AT_A_TIME.test(f));
  for (const f of serial) shards[0]!.files.push(f);
  shards[0]!.load = serial.reduce((sum, f) => sum + weight.get(f)!, 0);
  const rest = files.filter((f) => !ONE_AT_A_TIME.test(f)).sort((a, b) => weight.get(b)! - weight.get(a)!);
  for (const f of rest) {
    const shard = shards.reduce((least, s) => (s.load < least.load ? s : least));
    shard.files.push(f);
    shard.load += weight.get(f)!;
  }
  return shards.map((s) => s.files).filter((f) => f.length > 0);
}

interface Shard {
  child: ChildProcess;
  exited: Promise<number>;
  junit: string;
}

const FILE_HEADER = /^(\.\/)?test\/\S+:$/;
/** Where `bun test`'s closing part starts: its list of failed (skipped, todo) tests again, then its totals. */
const CLOSING = /^(\d+ tests? (failed|skipped|todo):|\s*\d+ pass)$/;
const failed: string[] = [];
const trailers: string[] = [];

/** Prints a process's output a file at a time; keeps its failed tests and its closing totals. */
function relay(child: ChildProcess): Promise<void> {
  let partial = "";
  let block: string[] = [];
  let trailer = false;
  const flush = () => {
    if (block.length) process.stderr.write(`${block.join("\n")}\n`);
    block = [];
  };
  const line = (text: string) => {
    if (FILE_HEADER.test(text)) {
      flush();
      trailer = false;
    } else if (CLOSING.test(text)) {
      flush();
      trailer = true;
    }
    if (text.startsWith("(fail)") && !trailer) failed.push(text);
    if (trailer) trailers.push(text);
    else block.push(text);
  };
  const read = (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop()!;
    for (const text of lines) line(text);
  };
  child.stdout!.on("data", read);
  child.stderr!.on("data", read);
  return new Promise((resolve) =>
    child.on("close", () => {
      if (partial) line(partial);
      flush();
      resolve();
    }),
  );
}

function start(files: string[], options: string[], serverUrl: string, index: number): Shard {
  const junit = `.data/test/junit-${index}.xml`;
  const args = ["test", "--timeout", TIMEOUT_MS, "--reporter=junit", `--reporter-outfile=${junit}`, ...options, ...files.map((f) => `./${f}`)];
  // A process group of its own: a signal for the run reaches the process and everything it started.
  const child = spawn(process.execPath, args, {
    env: { ...process.env, TEST_RUN_SERVER_URL: serverUrl, TEST_RUN_PID: String(process.pid) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const relayed = relay(child);
  const exited = new Promise<number>((resolve) => child.on("exit", (code, signal) => void relayed.then(() => resolve(code ?? (signal ? 128 : 1)))));
  return { child, exited, junit };
}

/** Each file's seconds from the processes' JUnit reports, for the next run's split. */
function recordDurations(shards: Shard[]) {
  let known: Record<string, number> = {};
  try {
    known = JSON.parse(readFileSync(DURATIONS_FILE, "utf8"));
  } catch {}
  for (const { junit } of shards) {
    try {
      const xml = readFileSync(junit, "utf8");
      for (const m of xml.matchAll(/<testsuite name="([^"]+)"[^>]*?\stime="([\d.]+)"/g)) {
        if (m[1]!.startsWith("test/")) known[m[1]!] = Number(m[2]);
      }
      rmSync(junit, { force: true });
    } catch {}
  }
  writeFileSync(DURATIONS_FILE, `${JSON.stringify(known, null, 1)}\n`);
}

function signalAll(shards: Shard[], signal: NodeJS.Signals) {
  for (const { child } of shards) {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) continue;
    try {
      process.kill(-child.pid, signal);
    } catch {}
  }
}

const totals = (pattern: RegExp) => trailers.reduce((sum, t) => sum + Number(t.match(pattern)?.[1] ?? 0), 0);

async function main(): Promise<number> {
  const { filters, options } = readArgs(process.argv.slice(2));
  const all = testFiles();
  const files = filters.length ? all.filter((f) => filters.some((p) => f === p || f.startsWith(`${p}/`) || f.includes(p))) : all;
  if (files.length === 0) {
    process.stderr.write(`No test files match ${filters.join(" ")}\n`);
    return 1;
  }
  const jobs = Math.max(1, Number(process.env.TEST_JOBS ?? availableParallelism() + 1));

  let server: TestServer;
  try {
    server = await prepareTestServer();
  } catch (error) {
    process.stderr.write(setupFailure(error));
    return 1;
  }
  mkdirSync(".data/test", { recursive: true });
  if (files.some((f) => f.startsWith("test/dashboard-ui/"))) await ensureChromium((line) => process.stdout.write(line));
  const shards = split(files, jobs).map((f, i) => start(f, options, server.url, i));

  let interrupted: NodeJS.Signals | undefined;
  const interrupt = (signal: NodeJS.Signals) => {
    interrupted ??= signal;
    signalAll(shards, signal);
    // A process that does not end within 15 s of the signal is killed, its group with it.
    setTimeout(() => signalAll(shards, "SIGKILL"), 15_000).unref();
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => interrupt(signal));
  // npm does not pass a SIGTERM on to its script: npm gone, the run stops as if it had been told.
  watchParent(() => interrupt("SIGTERM"));
  const codes = await Promise.all(shards.map((s) => s.exited));
  await server.stop();
  if (interrupted) return interrupted === "SIGINT" ? 130 : 143;
  recordDurations(shards);

  if (failed.length) process.stderr.write(`\n${failed.length} tests failed:\n${failed.join("\n")}\n`);
  const ran = totals(/^Ran (\d+) tests/);
  process.stderr.write(
    `\n ${totals(/^\s*(\d+) pass$/)} pass\n` +
      (totals(/^\s*(\d+) skip$/) ? ` ${totals(/^\s*(\d+) skip$/)} skip\n` : "") +
      (totals(/^\s*(\d+) todo$/) ? ` ${totals(/^\s*(\d+) todo$/)} todo\n` : "") +
      ` ${totals(/^\s*(\d+) fail$/)} fail\n` +
      ` ${totals(/^\s*(\d+) expect\(\) calls$/)} expect() calls\n` +
      `Ran ${ran} tests across ${files.length} files in ${shards.length} processes.\n`,
  );
  return codes.find((c) => c !== 0) ?? 0;
}

process.exit(await main());
