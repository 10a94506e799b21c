/**
 * What the structure tests read: every file of src/ with its text and its imports of our own files, resolved
 * to file paths relative to the repository (`src/http/auth.ts`). Type-only imports are imports too: a circle of
 * types is still two files that cannot change apart.
 */
import { Glob } from "bun";
import { dirname, relative, resolve } from "node:path";

export const ROOT = resolve(import.meta.dir, "../..");
export const SRC = `${ROOT}/src`;

export interface Import {
  /** the specifier as written */
  spec: string;
  /** the imported file relative to ROOT, for a relative specifier; undefined for a package */
  file: string | undefined;
  /** `import type { ... }` / `export type { ... }` */
  typeOnly: boolean;
  /** the names it imports (empty for `import * as` or a side-effect import) */
  names: string[];
}

export interface SourceFile {
  /** relative to ROOT: `src/lib/networks.ts` */
  path: string;
  text: string;
  imports: Import[];
}

const IMPORT = /^\s*(import|export)\s+(type\s+)?([^;]*?)\s*from\s+["']([^"']+)["']/gm;
/** `import "./x"` (for its side effects) and `import("./x")` (loaded when needed) are imports too. */
const BARE_OR_DYNAMIC_IMPORT = /^\s*import\s+["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm;

async function resolveFile(from: string, spec: string): Promise<string> {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    if (/\.(tsx?|json)$/.test(candidate) && (await Bun.file(candidate).exists())) return relative(ROOT, candidate);
  }
  return relative(ROOT, base);
}

function importedNames(clause: string): string[] {
  const braces = clause.match(/\{([^}]*)\}/);
  if (!braces) return [];
  return braces[1]!
    .split(",")
    .map((n) => n.trim())
    .filter((n) => n && !n.startsWith("type "))
    .map((n) => n.split(/\s+as\s+/)[0]!.trim());
}

export async function readSources(): Promise<SourceFile[]> {
  const files: SourceFile[] = [];
  for await (const path of new Glob("**/*.{ts,tsx}").scan(SRC)) {
    const absolute = `${SRC}/${path}`;
    const text = await Bun.file(absolute).text();
    const imports: Import[] = [];
    for (const [, , type, clause, spec] of text.matchAll(IMPORT)) {
      imports.push({
        spec: spec!,
        file: spec!.startsWith(".") ? await resolveFile(absolute, spec!) : undefined,
        typeOnly: type !== undefined,
        names: type !== undefined ? [] : importedNames(clause!),
      });
    }
    for (const [, bare, dynamic] of text.matchAll(BARE_OR_DYNAMIC_IMPORT)) {
      const spec = (bare ?? dynamic)!;
      imports.push({ spec, file: spec.startsWith(".") ? await resolveFile(absolute, spec) : undefined, typeOnly: false, names: [] });
    }
    files.push({ path: `src/${path}`, text, imports });
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}
