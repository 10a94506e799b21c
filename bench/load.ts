/**
 * Load generator, run as its own process so it never shares the server's event loop:
 *
 *   bun bench/load.ts --url http://127.0.0.1:3000 --requests reqs.json [--scenario name]
 *     [--connections 64] [--duration 10] [--warmup 2] [--allow 200,201] [--workers 1]
 *
 * `--requests` is a JSON array of {method, path, headers?, body?}, rotated round-robin. Each of the
 * connections is a raw HTTP/1.1 keep-alive socket with exactly one request outstanding (no pipelining),
 * so the latency measured is the latency a client sees. Prints one JSON line.
 * `errors` counts responses whose status is not allowed, socket failures, and requests still
 * unanswered when the run ends. `acknowledged` counts allowed responses over the whole run, warmup
 * included, for comparing with what the server stored.
 */
import { Histogram } from "./histogram";
import { frame, serialize, type RequestTemplate } from "./http1";

interface Options {
  url: URL;
  requestsFile: string;
  scenario: string;
  connections: number;
  durationS: number;
  warmupS: number;
  allow: Set<number>;
  workers: number;
  raw: boolean;
}

/** What one loader process measured; a parent merges several. */
interface Raw {
  hist: [number, number][];
  statuses: Record<string, number>;
  acknowledged: number;
  socketErrors: number;
  unanswered: number;
  /** CPU the loader itself used while measuring, in cores: it must stay well under one. */
  cpuCores: number;
}

function parseOptions(argv: string[]): Options {
  const a: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i]!;
    if (!name.startsWith("--")) throw new Error(`Unexpected argument ${name}`);
    if (name === "--raw") a.raw = "1";
    else a[name.slice(2)] = argv[++i] ?? "";
  }
  if (!a.url || !a.requests)
    throw new Error(
      "Usage: bun bench/load.ts --url URL --requests FILE.json [--connections N --duration S --warmup S --allow 200,201 --workers N --scenario NAME]",
    );
  return {
    url: new URL(a.url),
    requestsFile: a.requests,
    scenario: a.scenario ?? "load",
    connections: Number(a.connections ?? 64),
    durationS: Number(a.duration ?? 10),
    warmupS: Number(a.warmup ?? 2),
    allow: new Set((a.allow ?? "200").split(",").map(Number)),
    workers: Number(a.workers ?? 1),
    raw: a.raw === "1",
  };
}

interface Conn {
  buf: Uint8Array | null; // bytes of a response still incomplete
  sentAt: number; // 0 when idle
  rest: Uint8Array | null; // request bytes the kernel did not take yet
}

async function load(o: Options, templates: RequestTemplate[]): Promise<Raw> {
  const host = o.url.host;
  const requests = templates.map((t) => serialize(t, host));
  const hist = new Histogram();
  const statuses: Record<string, number> = {};
  let acknowledged = 0;
  let socketErrors = 0;
  let next = 0;

  const start = performance.now();
  const measureFrom = start + o.warmupS * 1000;
  const measureTo = measureFrom + o.durationS * 1000;
  let stopping = false; // no new requests
  let closing = false; // we are closing the sockets ourselves
  const sockets = new Set<Bun.Socket<Conn>>();

  const send = (s: Bun.Socket<Conn>) => {
    if (stopping) return;
    const bytes = requests[next++ % requests.length]!;
    s.data.sentAt = performance.now();
    const n = s.write(bytes);
    s.data.rest = n < bytes.length ? bytes.subarray(Math.max(n, 0)) : null;
  };

  const onResponse = (s: Bun.Socket<Conn>, status: number) => {
    const now = performance.now();
    if (o.allow.has(status)) acknowledged++;
    if (now >= measureFrom && now < measureTo) {
      hist.record((now - s.data.sentAt) * 1000);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
    s.data.sentAt = 0;
    if (now >= measureTo) stopping = true;
  };

  const connect = (): void => {
    if (stopping) return;
    Bun.connect<Conn>({
      hostname: o.url.hostname,
      port: Number(o.url.port || 80),
      data: { buf: null, sentAt: 0, rest: null },
      socket: {
        open(s) {
          if (stopping) return void s.end();
          sockets.add(s);
          s.setNoDelay(true);
          send(s);
        },
        drain(s) {
          const rest = s.data.rest;
          if (!rest) return;
          const n = s.write(rest);
          s.data.rest = n < rest.length ? rest.subarray(Math.max(n, 0)) : null;
        },
        data(s, chunk) {
          const b: Uint8Array = s.data.buf ? concat(s.data.buf, chunk) : chunk;
          const f = frame(b);
          if (!f) {
            s.data.buf = b;
            return;
          }
          // One request is outstanding, so anything past this response is a protocol error.
          s.data.buf = null;
          onResponse(s, f.status);
          if (f.close || f.size !== b.length) s.end();
          else send(s);
        },
        close(s) {
          sockets.delete(s);
          if (s.data.sentAt !== 0 && !closing) socketErrors++; // a request lost with its connection
          s.data.sentAt = 0;
          if (!stopping) setTimeout(connect, 10);
        },
        error() {
          socketErrors++;
        },
      },
    }).catch(() => {
      socketErrors++;
      if (!stopping) setTimeout(connect, 50);
    });
  };
  for (let i = 0; i < o.connections; i++) connect();

  await Bun.sleep(measureFrom - performance.now());
  const cpuFrom = process.cpuUsage();
  // Stop sending at the end, then give in-flight requests a moment before counting them unanswered.
  await Bun.sleep(measureTo - performance.now());
  const cpu = process.cpuUsage(cpuFrom);
  const cpuCores = (cpu.user + cpu.system) / 1e6 / o.durationS;
  stopping = true;
  const graceUntil = performance.now() + 5000;
  while ([...sockets].some((s) => s.data.sentAt !== 0) && performance.now() < graceUntil) await Bun.sleep(5);
  const unanswered = [...sockets].filter((s) => s.data.sentAt !== 0).length;
  closing = true;
  for (const s of sockets) s.end();
  return { hist: hist.toSparse(), statuses, acknowledged, socketErrors, unanswered, cpuCores };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Runs `n` loader processes splitting the connections, and returns their raw results. */
async function fanOut(o: Options, n: number): Promise<Raw[]> {
  const base = Math.floor(o.connections / n);
  const procs = Array.from({ length: n }, (_, i) => {
    const connections = base + (i < o.connections % n ? 1 : 0);
    const args = [
      "--url",
      o.url.href,
      "--requests",
      o.requestsFile,
      "--connections",
      String(connections),
      "--duration",
      String(o.durationS),
      "--warmup",
      String(o.warmupS),
      "--allow",
      [...o.allow].join(","),
      "--raw",
    ];
    return Bun.spawn([process.execPath, import.meta.path, ...args], { stdout: "pipe", stderr: "inherit" });
  });
  return Promise.all(
    procs.map(async (p) => {
      const text = await new Response(p.stdout).text();
      if ((await p.exited) !== 0) throw new Error(`loader worker exited with ${p.exitCode}`);
      return JSON.parse(text) as Raw;
    }),
  );
}

function summarize(o: Options, parts: Raw[]) {
  const hist = new Histogram();
  const statuses: Record<string, number> = {};
  let acknowledged = 0,
    socketErrors = 0,
    unanswered = 0,
    cpuCores = 0;
  for (const p of parts) {
    hist.addSparse(p.hist);
    for (const [s, n] of Object.entries(p.statuses)) statuses[s] = (statuses[s] ?? 0) + n;
    acknowledged += p.acknowledged;
    socketErrors += p.socketErrors;
    unanswered += p.unanswered;
    cpuCores += p.cpuCores;
  }
  const ok = Object.entries(statuses).reduce((sum, [s, n]) => sum + (o.allow.has(Number(s)) ? n : 0), 0);
  const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;
  return {
    scenario: o.scenario,
    connections: o.connections,
    workers: parts.length,
    durationS: o.durationS,
    requests: hist.total,
    rps: Math.round(hist.total / o.durationS),
    okRps: Math.round(ok / o.durationS),
    p50Ms: round(hist.quantileMs(0.5)),
    p99Ms: round(hist.quantileMs(0.99)),
    p999Ms: round(hist.quantileMs(0.999)),
    errors: hist.total - ok + socketErrors + unanswered,
    statuses,
    socketErrors,
    unanswered,
    acknowledged,
    loaderCpuCores: round(cpuCores, 2),
  };
}

const o = parseOptions(Bun.argv.slice(2));
const templates = (await Bun.file(o.requestsFile).json()) as RequestTemplate[];
if (!Array.isArray(templates) || templates.length === 0) throw new Error(`${o.requestsFile}: expected a non-empty JSON array of requests`);
if (o.raw) {
  console.log(JSON.stringify(await load(o, templates)));
} else {
  const parts = o.workers > 1 ? await fanOut(o, o.workers) : [await load(o, templates)];
  console.log(JSON.stringify(summarize(o, parts)));
}
