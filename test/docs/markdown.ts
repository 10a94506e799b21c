/**
 * Reading Markdown the way GitHub renders it, as far as links need: the headings of a file and the anchors
 * GitHub gives them, and the relative links a file makes. Fenced code blocks and inline code hold neither.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";

export const ROOT = join(import.meta.dir, "../..");

/** The text with fenced code blocks blanked (line count kept, so line numbers still point at the file). */
function withoutFences(text: string): string {
  let inFence = false;
  return text
    .split("\n")
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        inFence = !inFence;
        return "";
      }
      return inFence ? "" : line;
    })
    .join("\n");
}

/**
 * GitHub's anchor for a heading (github-slugger): the rendered text lower-cased, every character that is not a
 * letter, mark, digit, connector (`_`), space or hyphen dropped, each space a hyphen; a repeated slug gets -1, -2, ...
 */
export function slug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link renders as its text
    .replace(/`([^`]*)`/g, "$1")
    .replace(/(\*\*|__)(.*?)\1/g, "$2")
    .replace(/(\*|_)(.*?)\1/g, "$2")
    .trim();
  return rendered
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a file's headings make, duplicates numbered as GitHub numbers them. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, text] of withoutFences(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = slug(text!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

export interface Link {
  line: number;
  target: string;
}

/** Inline links `[text](target)` outside code, with the line they start on; external ones (a scheme) left out. */
export function relativeLinks(markdown: string): Link[] {
  const text = withoutFences(markdown).replace(/`[^`\n]*`/g, (code) => " ".repeat(code.length));
  const links: Link[] = [];
  for (const match of text.matchAll(/\[(?:[^[\]]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    links.push({ line: text.slice(0, match.index).split("\n").length, target });
  }
  return links;
}

/** What is wrong with one link from `from` (a path from the repo root), or null when it resolves. */
export async function brokenLink(from: string, target: string): Promise<string | null> {
  const [path, anchor] = target.split("#", 2) as [string, string | undefined];
  const file = path === "" ? from : relative(ROOT, join(ROOT, dirname(from), decodeURIComponent(path)));
  if (file.startsWith("..")) return `${target}: leaves the repository`;
  if (!existsSync(join(ROOT, file))) return `${target}: no file ${file}`;
  if (anchor === undefined) return null;
  if (statSync(join(ROOT, file)).isDirectory() || !file.endsWith(".md")) return `${target}: #${anchor} in a file that has no headings`;
  const anchors = anchorsOf(await Bun.file(join(ROOT, file)).text());
  return anchors.has(anchor) ? null : `${target}: ${file} has no heading whose anchor is #${anchor}`;
}

/** Files under a folder of the repo (relative paths), recursively, whose names end with `suffix`. */
export function filesUnder(folder: string, suffix: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(suffix)) found.push(path);
    }
  };
  if (existsSync(join(ROOT, folder))) walk(folder);
  return found.sort();
}
