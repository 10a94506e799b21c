/** Every relative link in README.md and docs/**\/*.md reaches a file, and every #anchor a heading in it. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { anchorsOf, brokenLink, filesUnder, ROOT, relativeLinks, slug } from "./markdown";

const pages = ["README.md", ...filesUnder("docs", ".md")];

test("anchors are GitHub's: lower case, punctuation dropped, spaces as hyphens, repeats numbered", () => {
  expect(slug('Decisions where the spec says "not shown"')).toBe("decisions-where-the-spec-says-not-shown");
  expect(slug("Settlement: payment links and checkout sessions")).toBe("settlement-payment-links-and-checkout-sessions");
  expect(slug("Operating subscriptions (dashboard and CLI)")).toBe("operating-subscriptions-dashboard-and-cli");
  expect(slug("`Idempotency-Key` and **retries**")).toBe("idempotency-key-and-retries");
  expect([...anchorsOf("# A\n## A\n```\n# not a heading\n```\n## A")]).toEqual(["a", "a-1", "a-2"]);
});

test("the pages exist and link to each other", () => {
  expect(pages.length).toBeGreaterThan(10);
  expect(pages.flatMap((page) => relativeLinks(readFileSync(join(ROOT, page), "utf8"))).length).toBeGreaterThan(40);
});

test("every relative link of README.md and docs/ resolves, anchors included", async () => {
  const broken: string[] = [];
  for (const page of pages) {
    for (const { line, target } of relativeLinks(await Bun.file(join(ROOT, page)).text())) {
      const problem = await brokenLink(page, target);
      if (problem) broken.push(`${page}:${line}: ${problem}`);
    }
  }
  expect(broken).toEqual([]);
});
