/** `operator create`, `member invite|list|roles|remove`, `sign-in-link`, as an operator runs them (subprocesses). */
import { afterAll, expect, test } from "bun:test";
import { cloneTestDatabase } from "../helpers/db";
import { TEST_SECRETS } from "../helpers/app";

const db = await cloneTestDatabase();
afterAll(() => db.drop());

function cli(args: string[], options: { stdin?: string; env?: Record<string, string> } = {}) {
  const p = Bun.spawnSync([process.execPath, "src/cli.ts", ...args], {
    env: { ...process.env, DATABASE_URL: db.url, ...TEST_SECRETS, ...options.env },
    stdin: options.stdin === undefined ? "ignore" : new TextEncoder().encode(options.stdin),
  });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

const ok = (args: string[], options?: Parameters<typeof cli>[1]) => {
  const r = cli(args, options);
  expect(r).toMatchObject({ code: 0, err: "" });
  return JSON.parse(r.out).data;
};

test("an operator made with a password from stdin, invited members, roles, removal and a one-time link", async () => {
  const team = ok(["team", "create", "--name", "CLI dashboard"]);
  const password = "a long enough password";
  const operator = ok(["operator", "create", "--email", "Owner@cli.test", "--name", "Owner"], { stdin: `${password}\n` });
  expect(operator.id).toStartWith("op_");
  expect(operator).toMatchObject({ email: "Owner@cli.test", name: "Owner" });
  expect(JSON.stringify(operator)).not.toContain(password);
  // From the environment too; too short is refused.
  const short = cli(["operator", "create", "--email", "short@cli.test", "--name", "S"], { env: { OPERATOR_PASSWORD: "short" } });
  expect(short.code).not.toBe(0);
  expect(JSON.parse(short.err).details).toEqual({ password: "12 to 256 characters" });
  // The same email in another case is taken.
  expect(cli(["operator", "create", "--email", "owner@CLI.test", "--name", "Again"], { stdin: `${password}\n` }).code).not.toBe(0);

  // Membership for the operator (as owner), then the member commands.
  const session = ok(["session", "create", "--team", team.id, "--email", "owner@cli.test", "--roles", "owner"]);
  expect(session.operatorId).toBe(operator.id);
  const members = ok(["member", "list", "--team", team.id]);
  expect(members).toEqual([expect.objectContaining({ id: session.memberId, operatorId: operator.id, roles: ["owner"] })]);
  const invited = ok(["member", "invite", "--team", team.id, "--email", "grace@cli.test", "--roles", "catalog:read,billing:read"]);
  expect(invited.token).toStartWith("dinv_");
  expect(invited.invitation).toMatchObject({ email: "grace@cli.test", roles: ["catalog:read", "billing:read"], invitedBy: "cli" });
  const lastOwner = cli(["member", "roles", "--team", team.id, "--id", session.memberId, "--roles", "admin"]);
  expect(lastOwner.code).not.toBe(0);
  expect(JSON.parse(lastOwner.err).code).toBe("last_owner");
  const other = ok(["session", "create", "--team", team.id, "--email", "helper@cli.test", "--roles", "catalog:read"]);
  expect(ok(["member", "roles", "--team", team.id, "--id", other.memberId, "--roles", "owner,catalog:read"]).roles).toEqual([
    "owner",
    "catalog:read",
  ]);
  expect(ok(["member", "remove", "--team", team.id, "--id", other.memberId]).id).toBe(other.memberId);
  expect(ok(["member", "list", "--team", team.id]).map((m: { id: string }) => m.id)).toEqual([session.memberId]);

  const link = ok(["sign-in-link", "--email", "owner@cli.test", "--team", team.id]);
  expect(link.token).toStartWith("dlink_");
  expect(link.url).toEndWith(`/dashboard/sign-in#token=${link.token}`);
  expect(cli(["sign-in-link", "--email", "grace@cli.test", "--team", team.id]).code).not.toBe(0); // not a member yet

  const [stored] = await db.sql`select password_hash from operators where id = ${operator.id}`;
  // The production cost, PASSWORD_HASH_MEMORY_KIB's default (only createTestApp lowers it).
  expect(stored!.password_hash).toStartWith("$argon2id$v=19$m=65536,");
}, 90_000);
