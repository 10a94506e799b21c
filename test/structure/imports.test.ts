/**
 * The dependency rules of src/, read off the source so they cannot quietly erode:
 * no import cycle between folders; src/lib/ is framework-free (no Elysia, no auth/); domains and db/ do
 * not reach back into boot (config, app-deps, app, index). Type-only imports count: a cycle of types is
 * still two folders that cannot change apart.
 */
import { expect, test } from "bun:test";
import { Glob } from "bun";
import { dirname, relative, resolve } from "node:path";

const SRC = resolve(import.meta.dir, "../../src");
// Entry points and their wiring: they may import anything; nothing imports them.
// tasks.ts wires the job queue to module handlers as app.ts wires routes; worker.ts is the worker process entry.
const BOOT_FILES = new Set(["index", "app", "app-deps", "config", "cli", "api-reference", "tasks", "worker"]);

/** The unit the rules talk about: a domain (`modules/<name>`), a top-level folder, or `boot`. */
function unitOf(file: string): string {
  const parts = relative(SRC, file).replace(/\.ts$/, "").split("/");
  if (parts.length === 1) return BOOT_FILES.has(parts[0]!) ? "boot" : parts[0]!;
  // The operator CLI is an entry point like index.ts: it reads the configuration and opens the database.
  if (parts[0] === "cli") return "boot";
  if (parts[0] === "modules") return `modules/${parts[1]}`;
  return parts[0]!;
}

interface Edge {
  from: string;
  to: string;
  /** one import that makes the edge, for the failure message */
  example: string;
}

const IMPORT = /^\s*(?:import|export)\b[^;]*?\bfrom\s+["']([^"']+)["']/gm;

async function readImports() {
  const edges = new Map<string, Edge>();
  const packages: { unit: string; file: string; spec: string }[] = [];
  for await (const path of new Glob("**/*.ts").scan(SRC)) {
    const file = `${SRC}/${path}`;
    const text = await Bun.file(file).text();
    for (const [, spec] of text.matchAll(IMPORT)) {
      const from = unitOf(file);
      if (!spec!.startsWith(".")) {
        packages.push({ unit: from, file: path, spec: spec! });
        continue;
      }
      const to = unitOf(resolve(dirname(file), spec!));
      if (from !== to && !edges.has(`${from}>${to}`)) edges.set(`${from}>${to}`, { from, to, example: `src/${path} imports ${spec}` });
    }
  }
  return { edges: [...edges.values()], packages };
}

const { edges, packages } = await readImports();

test("no import cycle between folders", () => {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
    from === to || (!seen.has(from) && (seen.add(from), (next.get(from) ?? []).some((n) => reaches(n, to, seen))));
  const inCycles = edges.filter((e) => reaches(e.to, e.from)).map((e) => `${e.from} -> ${e.to} (${e.example})`);
  expect(inCycles).toEqual([]);
});

test("src/lib imports no other folder of src and not Elysia", () => {
  const outward = edges.filter((e) => e.from === "lib").map((e) => e.example);
  const framework = packages.filter((p) => p.unit === "lib" && /^(elysia|@elysiajs\/)/.test(p.spec)).map((p) => `src/${p.file} imports ${p.spec}`);
  expect([...outward, ...framework]).toEqual([]);
});

test("domains, db, auth and chains do not reach back into boot", () => {
  const back = edges.filter((e) => e.to === "boot").map((e) => e.example);
  expect(back).toEqual([]);
});
