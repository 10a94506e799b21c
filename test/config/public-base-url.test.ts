/** PUBLIC_BASE_URL (the origin of the invoices' download links): an absolute http(s) origin, or the boot stops naming it. */
import { expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config";

const tmp = () => `${process.cwd()}/.data/test/config-${crypto.randomUUID()}`;

test("unset: null (the links use each request's origin); set: kept as an origin", async () => {
  expect((await loadConfig({ DATA_DIR: tmp() })).publicBaseUrl).toBeNull();
  for (const [value, origin] of <[string, string][]>[
    ["https://billing.example.com", "https://billing.example.com"],
    ["https://billing.example.com/", "https://billing.example.com"],
    ["http://localhost:8080", "http://localhost:8080"],
    ["HTTPS://Billing.Example.com:443", "https://billing.example.com"],
  ]) {
    expect((await loadConfig({ DATA_DIR: tmp(), PUBLIC_BASE_URL: value })).publicBaseUrl).toBe(origin);
  }
});

test.each([
  ["billing.example.com", "not an absolute URL"],
  ["ftp://billing.example.com", "http:// or https://"],
  ["https://user:pw@billing.example.com", "no credentials"],
  ["https://billing.example.com/api/v1", "no path"],
  ["https://billing.example.com/?x=1", "no path"],
  ["https://billing.example.com#top", "no path"],
])("PUBLIC_BASE_URL=%s stops the boot: %s", async (value, why) => {
  const attempt = loadConfig({ DATA_DIR: tmp(), PUBLIC_BASE_URL: value });
  await expect(attempt).rejects.toThrow(ConfigError);
  await expect(attempt).rejects.toThrow(new RegExp(`PUBLIC_BASE_URL=.*${why.replace(/[/.]/g, "\\$&")}`));
});
