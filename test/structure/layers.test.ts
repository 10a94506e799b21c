/**
 * The layers of src/, file by file: what each infrastructure folder may import, and no import circle between
 * two files anywhere (type-only imports count: a circle of types is two files that cannot change apart).
 */
import { expect, test } from "bun:test";
import { readSources } from "./source";

const sources = await readSources();

const inside = (path: string, folder: string) => path.startsWith(`src/${folder}/`);

function breaks(from: (path: string) => boolean, forbidden: (to: string) => boolean): string[] {
  return sources
    .filter((f) => from(f.path))
    .flatMap((f) => f.imports.filter((i) => i.file && forbidden(i.file)).map((i) => `${f.path} imports ${i.spec}`));
}

test("chains never import db/ or modules/: a chain adapter knows networks, not tables or domains", () => {
  expect(
    breaks(
      (p) => inside(p, "chains"),
      (to) => inside(to, "db") || inside(to, "modules"),
    ),
  ).toEqual([]);
});

test("http never imports a domain (modules/): the HTTP layer is shared by every domain", () => {
  expect(
    breaks(
      (p) => inside(p, "http"),
      (to) => inside(to, "modules"),
    ),
  ).toEqual([]);
});

test("config.ts imports neither modules/ nor chains/: configuration is read before any domain exists", () => {
  expect(
    breaks(
      (p) => p === "src/config.ts",
      (to) => inside(to, "modules") || inside(to, "chains"),
    ),
  ).toEqual([]);
});

test("lib imports nothing of ours and no web framework", () => {
  const ours = breaks(
    (p) => inside(p, "lib"),
    (to) => !inside(to, "lib"),
  );
  const framework = sources
    .filter((f) => inside(f.path, "lib"))
    .flatMap((f) => f.imports.filter((i) => /^(elysia|@elysiajs\/)/.test(i.spec)).map((i) => `${f.path} imports ${i.spec}`));
  expect([...ours, ...framework]).toEqual([]);
});

test("db imports only lib", () => {
  expect(
    breaks(
      (p) => inside(p, "db"),
      (to) => !inside(to, "db") && !inside(to, "lib"),
    ),
  ).toEqual([]);
});

test("ui (the dashboard's pages) imports no domain, database or chain: a page is a client of the API, with no rule of its own", () => {
  expect(
    breaks(
      (p) => inside(p, "ui"),
      (to) => inside(to, "modules") || inside(to, "db") || inside(to, "chains") || inside(to, "jobs"),
    ),
  ).toEqual([]);
});

test("no import circle between files anywhere in src (type-only imports included)", () => {
  const next = new Map(sources.map((f) => [f.path, [...new Set(f.imports.flatMap((i) => (i.file?.startsWith("src/") ? [i.file] : [])))]]));
  // Tarjan's strongly connected components: every component with two files or more is a circle.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) circles.push(component.sort());
    }
  };
  for (const f of sources) if (!index.has(f.path)) visit(f.path);
  expect(circles.map((c) => c.join(" <-> "))).toEqual([]);
});
