/**
 * The README's first-call walkthrough, run as a reader would: the service started with `bun src/index.ts`
 * on a free port, then the README's own shell block (read from README.md, so the two cannot drift) run
 * with bash. Two substitutions only: the port, and seed.json's folder (a temp dir, not the checkout).
 * Each curl is wrapped to record its status and body, so every call is checked on its own.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { cloneTestDatabase } from "../helpers/db";

const MARKER = "<!-- test/docs/readme-walkthrough.test.ts runs the next block as written, against a running service. -->";

function walkthrough(readme: string): string {
  const after = readme.slice(readme.indexOf(MARKER) + MARKER.length);
  const block = /^\s*```sh\n([\s\S]*?)\n```/.exec(after);
  if (readme.indexOf(MARKER) === -1 || !block) throw new Error("README.md: no ```sh block after the walkthrough marker");
  return block[1]!;
}

const db = await cloneTestDatabase();
const dir = mkdtempSync(`${tmpdir()}/readme-walkthrough-`);
let service: Bun.Subprocess | undefined;
let port = 0;

async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, fetch: () => new Response() });
  const found = probe.port!;
  await probe.stop(true);
  return found;
}

beforeAll(async () => {
  port = await freePort();
  service = Bun.spawn([process.execPath, "src/index.ts"], {
    env: { ...process.env, PORT: String(port), DATABASE_URL: db.url, DATA_DIR: `${dir}/data`, LOG_LEVEL: "warn" },
    stdout: "ignore",
    stderr: "pipe",
  });
  const deadline = Date.now() + 50_000;
  for (;;) {
    if (service.exitCode !== null)
      throw new Error(`the service exited (${service.exitCode}): ${await new Response(service.stderr as ReadableStream).text()}`);
    if (Date.now() > deadline) throw new Error("the service did not answer within 50 s");
    const up = await fetch(`http://localhost:${port}/api/v1/health`).then(
      () => true,
      () => false,
    );
    if (up) break;
    await Bun.sleep(200);
  }
}, 60_000);

afterAll(async () => {
  if (service) {
    service.kill("SIGTERM");
    const stopped = await Promise.race([service.exited.then(() => true), Bun.sleep(15_000).then(() => false)]);
    if (!stopped) service.kill("SIGKILL");
    await service.exited;
  }
  await db.drop();
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

test("the README's first-call walkthrough runs as written: seed, then five calls that all succeed", async () => {
  expect(Bun.which("jq")).not.toBeNull(); // the walkthrough's one tool beyond npm and curl
  const block = walkthrough(await Bun.file("README.md").text());
  expect(block).toStartWith("npm run --silent cli -- seed > seed.json\n");
  const script = block.replaceAll("localhost:3000", `localhost:${port}`).replaceAll("seed.json", `${dir}/seed.json`);
  const recorder = `set -euo pipefail
calls=0
curl() { calls=$((calls + 1)); command curl -o "${dir}/$calls.body" -w '%{http_code}' "$@" > "${dir}/$calls.status"; }
`;
  const run = Bun.spawnSync(["bash", "-c", recorder + script], {
    env: { ...process.env, DATABASE_URL: db.url, DATA_DIR: `${dir}/data`, PORT: String(port) },
  });
  expect(run.stderr.toString()).toBe("");
  expect(run.exitCode).toBe(0);

  const seed = await Bun.file(`${dir}/seed.json`).json();
  expect(seed.data.keys.secret.key).toStartWith("sk_test_");
  const call = async (n: number) => ({
    status: Number(await Bun.file(`${dir}/${n}.status`).text()),
    body: await Bun.file(`${dir}/${n}.body`).json(),
  });

  const token = await call(1);
  expect(token.status).toBe(201);
  expect(token.body).toMatchObject({ token: expect.any(String), tokenType: "Bearer", companyId: seed.data.company.id });
  const companies = await call(2);
  expect(companies).toMatchObject({
    status: 200,
    body: { count: 1, nextCursor: null, data: [{ externalId: "acme", activePlanId: seed.data.plans.pro.id }] },
  });
  const check = await call(3);
  expect(check).toMatchObject({
    status: 200,
    body: { data: { featureKey: "api-calls", access: true, reason: "within_limit", used: 0, limit: 10_000 } },
  });
  expect(await call(4)).toEqual({ status: 200, body: { ok: true, data: { companyId: seed.data.company.id, userId: null } } });
  const audit = await call(5);
  expect(audit.status).toBe(200);
  expect(audit.body.data.map((entry: { action: string }) => entry.action)).toContain("credit.grant");
  expect(await Bun.file(`${dir}/6.status`).exists()).toBe(false);
}, 120_000);
