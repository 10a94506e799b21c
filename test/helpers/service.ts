/**
 * The service as a user runs it: `npm start` in a process group of its own (as a terminal would start
 * it), on a temporary DATA_DIR. Process scans look only at processes that carry that folder in their
 * command line or environment, so they never see (or touch) anyone else's.
 */
import { readdirSync, readFileSync } from "node:fs";
import { TEST_PG_PORT } from "./setup";

// Ports of their own, derived from TEST_PG_PORT so checkouts running suites side by side don't collide.
export const SERVICE_PORT = TEST_PG_PORT - 20000;
export const SERVICE_PG_PORT = TEST_PG_PORT + 100;

export interface RunningService {
  /** npm's pid, also the process group's id */
  pid: number;
  exited: Promise<number>;
  output(): string;
}

/** `extra` (settings of one test) is applied last: it may point DATABASE_URL elsewhere, move PORT or DATA_DIR. */
function serviceEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), PORT: String(SERVICE_PORT), DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  delete env.TEST_DATABASE_URL;
  return { ...env, EMBEDDED_PG_PORT: String(SERVICE_PG_PORT), LOG_LEVEL: "info", ...extra };
}

/**
 * `npm start` on the data folder; `env` adds settings. A second instance on the first one's database gets
 * DATABASE_URL, another PORT and a DATA_DIR inside `dataDir` (so the process scans still find it).
 */
export async function startService(dataDir: string, env: Record<string, string> = {}): Promise<RunningService> {
  const child = Bun.spawn(["setsid", "npm", "start"], { env: serviceEnv(dataDir, env), stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  let text = "";
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) text += decoder.decode(read.value, { stream: true });
  };
  const drained = Promise.all([collect(child.stdout), collect(child.stderr)]);
  const service = { pid: child.pid, exited: drained.then(() => child.exited), output: () => text };
  await waitFor(() => text.includes('"msg":"listening"') || child.exitCode !== null, 60_000);
  if (!text.includes('"msg":"listening"')) throw new Error(`service did not start: ${text}`);
  return service;
}

/** Runs the CLI on the same data folder, as `npm run cli` does. */
export function cliOn(dataDir: string, ...args: string[]) {
  return cliWith(dataDir, {}, ...args);
}

/** The CLI with the settings the service runs with (`env` as given to startService). */
export function cliWith(dataDir: string, env: Record<string, string>, ...args: string[]) {
  const p = Bun.spawnSync([process.execPath, "src/cli.ts", ...args], { env: serviceEnv(dataDir, env) });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

/** The CLI's `{data}` on success; throws with its stderr otherwise. */
export function cliData(dataDir: string, env: Record<string, string>, ...args: string[]) {
  const r = cliWith(dataDir, env, ...args);
  if (r.code !== 0) throw new Error(`cli ${args.join(" ")} exited ${r.code}: ${r.err}`);
  return JSON.parse(r.out).data;
}

export interface FoundProcess {
  pid: number;
  command: string;
}

/** Live processes whose command line or environment names the folder (ours only: the folder is our temp dir). */
export function processesUsing(dir: string): FoundProcess[] {
  const found: FoundProcess[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      const environ = readFileSync(`/proc/${entry}/environ`, "utf8");
      const state = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]?.[0];
      if (state !== "Z" && (command.includes(dir) || environ.includes(dir))) found.push({ pid: Number(entry), command });
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

export async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await Bun.sleep(100);
  }
  return true;
}

/** The bun process serving from the folder (not npm, nor the shell npm runs it with). */
export function serviceBun(dir: string): FoundProcess | undefined {
  return processesUsing(dir).find((p) => p.command.includes("src/index.ts") && !p.command.startsWith("sh"));
}

/** Waits until no process uses the folder; returns those still there after the timeout. */
export async function leftBehind(dir: string, timeoutMs = 10_000): Promise<FoundProcess[]> {
  await waitFor(() => processesUsing(dir).length === 0, timeoutMs);
  return processesUsing(dir);
}
