/**
 * `invoice pdf | pain013 | camt054` as an operator runs them: a subprocess writing the PDF to --out, the
 * XML to --out or printed in {data}; the documents are the ones the download links serve.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { extractText, getDocumentProxy } from "unpdf";
import { BUILT_IN_NETWORKS, ChainRegistry } from "../../src/lib/networks";
import { createTeam } from "../../src/modules/teams/team";
import { cloneTestDatabase } from "../helpers/db";
import { TEST_SECRETS } from "../helpers/app";
import { configureSeller, paidInvoice } from "../helpers/invoice-documents";
import { textsOf, xsdErrors } from "../helpers/iso20022";

const db = await cloneTestDatabase();
const dir = mkdtempSync(`${tmpdir()}/invoice-documents-`);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await db.drop();
});

function cli(...args: string[]) {
  const p = Bun.spawnSync([process.execPath, "src/cli.ts", ...args], { env: { ...process.env, DATABASE_URL: db.url, ...TEST_SECRETS } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

const team = await createTeam(db.sql, "CLI Docs");
const tenant = { teamId: team.id, environment: "development" as const };
await configureSeller(db.sql, tenant);
const paid = await paidInvoice(db.sql, new ChainRegistry(BUILT_IN_NETWORKS), tenant, new Date());
const number = (await db.sql`select number from invoices where id = ${paid.id}`)[0]!.number as string;

test("invoice pdf --out writes the PDF and says where; its text is the invoice's", async () => {
  const file = `${dir}/invoice.pdf`;
  const r = cli("invoice", "pdf", "--team", team.id, "--id", paid.id, "--out", file);
  expect(r).toMatchObject({ code: 0, err: "" });
  const bytes = new Uint8Array(await Bun.file(file).arrayBuffer());
  expect(JSON.parse(r.out)).toEqual({ data: { invoiceId: paid.id, number, file, bytes: bytes.length } });
  const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
  expect(text).toContain(number);
  expect(text).toContain(paid.refundHash!);
}, 30_000);

test("invoice pain013 prints the XML in {data}; invoice camt054 --out writes it; both valid", async () => {
  const pain = cli("invoice", "pain013", "--team", team.id, "--id", paid.id);
  expect(pain.code).toBe(0);
  const { data } = JSON.parse(pain.out);
  expect(data).toMatchObject({ invoiceId: paid.id, number });
  expect(await xsdErrors("pain.013.001.08", data.xml)).toEqual([]);

  const file = `${dir}/camt.xml`;
  const camt = cli("invoice", "camt054", "--team", team.id, "--id", paid.id, "--out", file);
  expect(camt.code).toBe(0);
  const xml = await Bun.file(file).text();
  expect(await xsdErrors("camt.054.001.08", xml)).toEqual([]);
  expect(textsOf(xml, "AddtlNtryInf")).toHaveLength(3);
}, 30_000);

test("a missing --out for the PDF is a usage error (exit 2); an unknown invoice or another environment's is not found (exit 1)", () => {
  const noOut = cli("invoice", "pdf", "--team", team.id, "--id", paid.id);
  expect(noOut.code).toBe(2);
  expect(JSON.parse(noOut.err)).toEqual({ error: "--out is required" });
  for (const args of [
    ["--id", "in_missing"],
    ["--id", paid.id, "--environment", "production"],
  ]) {
    const r = cli("invoice", "camt054", "--team", team.id, ...args);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.err)).toEqual({ error: expect.stringContaining("No invoice") });
  }
}, 30_000);
