/** Configuration is validated once; a bad value names its variable; secrets persist in the data folder. */
import { expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config";

const tmp = () => `${process.cwd()}/.data/test/config-${crypto.randomUUID()}`;

test("defaults", async () => {
  const c = await loadConfig({ DATA_DIR: tmp() });
  expect(c).toMatchObject({ port: 3000, databaseUrl: undefined, bodyLimitBytes: 1048576, logLevel: "info" });
});

test.each([
  ["PORT", "http"],
  ["PORT", "70000"],
  ["DATABASE_URL", "mysql://x"],
  ["REDIS_URL", "localhost:6379"],
  ["TOKEN_SIGNING_SECRET", "short"],
  ["TOKEN_SIGNING_SECRET_PREVIOUS", "short"],
  ["LOG_LEVEL", "loud"],
  ["BODY_LIMIT_BYTES", "12"],
  ["PASSWORD_HASH_MEMORY_KIB", "1023"],
])("%s=%s stops the boot with a message naming the variable", async (name, value) => {
  const attempt = loadConfig({ DATA_DIR: tmp(), [name]: value });
  await expect(attempt).rejects.toThrow(ConfigError);
  await expect(attempt).rejects.toThrow(new RegExp(`${name}=`));
});

test("PASSWORD_HASH_MEMORY_KIB: Argon2id's 64 MiB unless set (the suite sets 1 MiB through createTestApp)", async () => {
  expect((await loadConfig({ DATA_DIR: tmp() })).passwordHashMemoryKib).toBe(65_536);
  expect((await loadConfig({ DATA_DIR: tmp(), PASSWORD_HASH_MEMORY_KIB: "1024" })).passwordHashMemoryKib).toBe(1024);
});

test("generated secrets are kept in the data folder and reused", async () => {
  const dir = tmp();
  const first = await loadConfig({ DATA_DIR: dir });
  const second = await loadConfig({ DATA_DIR: dir });
  expect(first.tokenSigningSecret).toHaveLength(48);
  expect(second.tokenSigningSecret).toBe(first.tokenSigningSecret);
  expect(second.linkSigningSecret).toBe(first.linkSigningSecret);
  const stat = await Bun.file(`${dir}/secrets.json`).stat();
  expect(stat.mode & 0o777).toBe(0o600);
});

test("a bad secret or URL is named but never echoed", async () => {
  const attempt = loadConfig({ DATA_DIR: tmp(), TOKEN_SIGNING_SECRET: "hunter2-short", DATABASE_URL: "mysql://user:pa55word@db" });
  await expect(attempt).rejects.toThrow(/TOKEN_SIGNING_SECRET=\(value hidden\)/);
  const message = await attempt.catch((e: Error) => e.message);
  expect(message).toContain("DATABASE_URL=(value hidden)");
  expect(message).not.toContain("hunter2");
  expect(message).not.toContain("pa55word");
});

test("TOKEN_SIGNING_SECRET_PREVIOUS is optional, and never echoed when bad", async () => {
  expect((await loadConfig({ DATA_DIR: tmp() })).previousTokenSigningSecret).toBeUndefined();
  const previous = "an-earlier-signing-secret-0123456789abcdef";
  expect((await loadConfig({ DATA_DIR: tmp(), TOKEN_SIGNING_SECRET_PREVIOUS: previous })).previousTokenSigningSecret).toBe(previous);
  const message = await loadConfig({ DATA_DIR: tmp(), TOKEN_SIGNING_SECRET_PREVIOUS: "hunter2-short" }).catch((e: Error) => e.message);
  expect(message).toContain("TOKEN_SIGNING_SECRET_PREVIOUS=(value hidden)");
  expect(message).not.toContain("hunter2");
});

test("RATE_LIMIT_ENABLED defaults to true, accepts true/false/1/0, rejects anything else", async () => {
  expect((await loadConfig({ DATA_DIR: tmp() })).rateLimitEnabled).toBe(true);
  for (const [value, expected] of [
    ["true", true],
    ["1", true],
    ["false", false],
    ["0", false],
  ] as const) {
    expect((await loadConfig({ DATA_DIR: tmp(), RATE_LIMIT_ENABLED: value })).rateLimitEnabled).toBe(expected);
  }
  await expect(loadConfig({ DATA_DIR: tmp(), RATE_LIMIT_ENABLED: "yes" })).rejects.toThrow(/RATE_LIMIT_ENABLED="yes"/);
});

test("ZKTLS_*: attestors are validated addresses (none by default), one signature, 600 s", async () => {
  expect((await loadConfig({ DATA_DIR: tmp() })).zktls).toEqual({ attestors: [], minSignatures: 1, maxAgeSeconds: 600 });
  const a = "0x244897572368Eadf65bfBc5aec98D8e5443a9072";
  const c = await loadConfig({
    DATA_DIR: tmp(),
    ZKTLS_ATTESTORS: ` ${a}, 0x${"1".repeat(40)}`,
    ZKTLS_MIN_SIGNATURES: "2",
    ZKTLS_MAX_AGE_SECONDS: "60",
  });
  expect(c.zktls).toEqual({ attestors: [a.toLowerCase(), `0x${"1".repeat(40)}`], minSignatures: 2, maxAgeSeconds: 60 });
  for (const [name, value] of [
    ["ZKTLS_ATTESTORS", "0x1234"],
    ["ZKTLS_ATTESTORS", `${a},`],
    ["ZKTLS_MIN_SIGNATURES", "0"],
    ["ZKTLS_MAX_AGE_SECONDS", "0"],
  ] as const) {
    await expect(loadConfig({ DATA_DIR: tmp(), [name]: value })).rejects.toThrow(new RegExp(`${name}=`));
  }
});
