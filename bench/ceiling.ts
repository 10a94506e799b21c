/**
 * The loader's own ceiling: how many requests/s it drives against a trivial Bun.serve server on this
 * machine, with 1 and with 2 loader processes. Every figure of the bench must sit well below it.
 *   bun bench/ceiling.ts   (BENCH_DURATION_S, default 5)
 */
import { cpus, tmpdir } from "node:os";
import { rm } from "node:fs/promises";
import { cpuSeconds, freePort, runLoader, startServer, stopServer, waitReady } from "./procs";

const durationS = Number(process.env.BENCH_DURATION_S ?? 5);
const warmupS = 1;
const dir = `${tmpdir()}/bench-ceiling-${Date.now()}`;
const requestsFile = `${dir}/requests.json`;

async function measure(workers: number) {
  const port = freePort(3990);
  const server = startServer("trivial", [new URL("./trivial-server.ts", import.meta.url).pathname, String(port)], {}, `${dir}/trivial.log`);
  try {
    await waitReady(server, `http://127.0.0.1:${port}/`);
    const before = await cpuSeconds(server.proc.pid);
    const result = await runLoader({
      scenario: "ceiling_trivial_bun_serve",
      url: `http://127.0.0.1:${port}`,
      requestsFile,
      connections: 64,
      durationS,
      warmupS,
      workers,
    });
    const after = await cpuSeconds(server.proc.pid);
    const serverCpuCores = before === null || after === null ? null : Math.round(((after - before) / (durationS + warmupS)) * 100) / 100;
    console.log(JSON.stringify({ ...result, serverCpuCores, cpus: cpus().length }));
  } finally {
    await stopServer(server);
  }
}

try {
  await Bun.write(requestsFile, JSON.stringify([{ method: "GET", path: "/" }]));
  await measure(1);
  await measure(2);
} finally {
  await rm(dir, { recursive: true, force: true });
}
