/**
 * Process plumbing for the bench: free ports, servers started as subprocesses with their output in a
 * log file (stdout stays for the JSON lines), readiness by polling HTTP, and a stop that escalates.
 */
import type { Subprocess } from "bun";
import { closeSync, openSync } from "node:fs"; // one append-mode descriptor shared by stdout and stderr
import { readdir } from "node:fs/promises"; // listing /proc: no web or Bun API for it

export const BUN = process.execPath;
export const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

function canListen(port: number): boolean {
  try {
    Bun.listen({ hostname: "127.0.0.1", port, socket: { data() {} } }).stop(true);
    return true;
  } catch {
    return false;
  }
}

/** `preferred` when nothing listens there, else the next free port above it. */
export function freePort(preferred: number): number {
  for (let port = preferred; port < preferred + 200; port++) if (canListen(port)) return port;
  throw new Error(`No free port in ${preferred}..${preferred + 199}`);
}

export interface Server {
  name: string;
  proc: Subprocess;
  logFile: string;
}

export function startServer(name: string, args: string[], env: Record<string, string>, logFile: string): Server {
  const fd = openSync(logFile, "a");
  const proc = Bun.spawn([BUN, ...args], { env: { ...process.env, ...env }, stdout: fd, stderr: fd, stdin: "ignore" });
  closeSync(fd); // the child holds its own copy
  return { name, proc, logFile };
}

export async function tail(file: string, lines = 20): Promise<string> {
  const text = await Bun.file(file)
    .text()
    .catch(() => "");
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}

/** Polls `url` until it answers 200; fails early, with the log's tail, if the process exits. */
export async function waitReady(server: Server, url: string, timeoutMs = 60_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (performance.now() < until) {
    if (server.proc.exitCode !== null || server.proc.signalCode !== null) {
      throw new Error(`${server.name} exited before it was ready:\n${await tail(server.logFile)}`);
    }
    const ok = await fetch(url).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    await Bun.sleep(100);
  }
  throw new Error(`${server.name} not ready at ${url} after ${timeoutMs} ms:\n${await tail(server.logFile)}`);
}

/** SIGTERM (the servers drain and flush on it), then SIGKILL if it has not exited in 10 s. */
export async function stopServer(server: Server): Promise<void> {
  if (server.proc.exitCode !== null || server.proc.signalCode !== null) return;
  server.proc.kill("SIGTERM");
  const exited = await Promise.race([server.proc.exited.then(() => true), Bun.sleep(10_000).then(() => false)]);
  if (!exited) {
    server.proc.kill("SIGKILL");
    await server.proc.exited;
  }
}

/** Fields of /proc/PID/stat after the command name: [0] state, [1] ppid, [11] utime, [12] stime. */
async function procStat(pid: number | string): Promise<string[] | null> {
  const stat = await Bun.file(`/proc/${pid}/stat`)
    .text()
    .catch(() => null);
  return stat ? stat.slice(stat.lastIndexOf(")") + 2).split(" ") : null;
}
const ticks = (f: string[]) => (Number(f[11]) + Number(f[12])) / 100; // clock ticks are 1/100 s

/** CPU seconds (user + system) a process has used so far; Linux only, else null. */
export async function cpuSeconds(pid: number): Promise<number | null> {
  const f = await procStat(pid);
  return f ? ticks(f) : null;
}

/** CPU seconds of a process and its children: PostgreSQL's postmaster and its backends. */
export async function treeCpuSeconds(pid: number): Promise<number | null> {
  const entries = await readdir("/proc").catch(() => null);
  if (!entries) return null;
  let total = 0;
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const f = await procStat(name);
    if (f && (name === String(pid) || f[1] === String(pid))) total += ticks(f);
  }
  return total;
}

/** CPU seconds the whole machine has been busy (all but idle and iowait); Linux only, else null. */
export async function machineBusySeconds(): Promise<number | null> {
  const line =
    (
      await Bun.file("/proc/stat")
        .text()
        .catch(() => "")
    ).split("\n")[0] ?? "";
  if (!line.startsWith("cpu ")) return null;
  const [user, nice, system, , , irq, softirq, steal] = line.split(/\s+/).slice(1).map(Number);
  return (user! + nice! + system! + irq! + softirq! + steal!) / 100;
}

export interface LoadArgs {
  scenario: string;
  url: string;
  requestsFile: string;
  connections: number;
  durationS: number;
  warmupS: number;
  allow?: number[];
  workers?: number;
  /** Aborting kills the loader (Ctrl-C on the bench). */
  signal?: AbortSignal;
}

/** Runs bench/load.ts as its own process and returns the JSON line it printed. */
export async function runLoader(a: LoadArgs): Promise<Record<string, unknown>> {
  const args = [
    "--scenario",
    a.scenario,
    "--url",
    a.url,
    "--requests",
    a.requestsFile,
    "--connections",
    String(a.connections),
    "--duration",
    String(a.durationS),
    "--warmup",
    String(a.warmupS),
    "--allow",
    (a.allow ?? [200]).join(","),
    "--workers",
    String(a.workers ?? 1),
  ];
  const proc = Bun.spawn([BUN, new URL("./load.ts", import.meta.url).pathname, ...args], {
    stdout: "pipe",
    stderr: "inherit",
    stdin: "ignore",
    signal: a.signal,
  });
  const text = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`loader for ${a.scenario} exited with ${proc.exitCode}`);
  return JSON.parse(text.trim().split("\n").pop()!);
}
