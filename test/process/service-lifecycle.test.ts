/**
 * No process left behind (docs/operations/processes.md): `npm start` stopped by SIGTERM to npm, by Ctrl-C (SIGINT to
 * its whole process group) under in-flight requests, and after a kill -9 followed by a new start.
 */
import { afterAll, afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { contractChecked } from "../helpers/contract";
import { cliOn, leftBehind, processesUsing, SERVICE_PORT, serviceBun, startService, waitFor } from "../helpers/service";

// The running service is held to its OpenAPI document as the in-process helper is.
const checkedFetch = contractChecked((request) => fetch(request));

// One data folder for the file: the cluster is created once, then every test starts and stops the service on it.
const dataDir = mkdtempSync(`${tmpdir()}/billing-lifecycle-`);
const base = `http://127.0.0.1:${SERVICE_PORT}/api/v1`;

afterEach(async () => {
  // A failed test must not leave its processes running either: only ours (they name our temp folder).
  for (const p of processesUsing(dataDir)) process.kill(p.pid, "SIGKILL");
  await leftBehind(dataDir, 5_000);
});
// Each test starts PostgreSQL and the service as a user would: seconds each on a busy machine.
const SLOW = 90_000;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

test(
  "SIGTERM to the npm process stops the service and its database",
  async () => {
    const service = await startService(dataDir);
    expect(processesUsing(dataDir).some((p) => p.command.includes(`${dataDir}/pg`))).toBe(true);
    process.kill(service.pid, "SIGTERM");
    expect(await leftBehind(dataDir)).toEqual([]);
  },
  SLOW,
);

test(
  "the CLI shares the running service's database without stopping it, and Ctrl-C under load drains cleanly",
  async () => {
    const service = await startService(dataDir);
    const seeded = cliOn(dataDir, "seed");
    expect(seeded.err).toBe("");
    expect(seeded.code).toBe(0);
    const key: string = JSON.parse(seeded.out).data.keys.secret.key;
    const get = () => checkedFetch(new Request(`${base}/companies`, { headers: { authorization: `Bearer ${key}` } }));
    expect((await get()).status).toBe(200); // the CLI's exit left the database up

    // Requests in flight (each leaving a lastUsedAt write to flush) when the terminal's Ctrl-C reaches the group.
    const inFlight = Array.from({ length: 20 }, () =>
      get().then(
        (r) => r.status,
        () => 0,
      ),
    );
    process.kill(-service.pid, "SIGINT");
    // A request the server took is answered in full (200); one that came after it stopped accepting is refused
    // at the socket (0). Nothing in between: no 500 from a pool closed under it.
    const statuses = await Promise.all(inFlight);
    expect(statuses.filter((status) => status !== 200 && status !== 0)).toEqual([]);
    await service.exited; // npm's own code is 130 after a SIGINT; the service's log tells how its stop went
    expect(service.output()).toContain('"msg":"stopped"');
    expect(service.output()).not.toContain('"level":"error"');
    expect(await leftBehind(dataDir)).toEqual([]);
  },
  SLOW,
);

test(
  "after kill -9 the next start stops the orphaned database, and its own stop leaves nothing",
  async () => {
    const first = await startService(dataDir);
    const bun = serviceBun(dataDir);
    process.kill(bun!.pid, "SIGKILL");
    await first.exited;
    await waitFor(() => !processesUsing(dataDir).some((p) => p.command.includes("src/index.ts")), 5_000);
    const orphan = processesUsing(dataDir).filter((p) => p.command.includes(`${dataDir}/pg`));
    expect(orphan).toHaveLength(1); // PostgreSQL outlives a killed parent: this is what the next start must handle

    const second = await startService(dataDir);
    expect(processesUsing(dataDir).some((p) => p.pid === orphan[0]!.pid)).toBe(false);
    process.kill(second.pid, "SIGTERM");
    expect(await leftBehind(dataDir)).toEqual([]);
  },
  SLOW,
);
