/** What README.md states as a closed list must be the code's list. */
import { expect, test } from "bun:test";
import { ERROR_CODES } from "../../src/lib/errors";

const readme = await Bun.file(new URL("../../README.md", import.meta.url)).text();

test("the README's closed list of error codes is ERROR_CODES", () => {
  const paragraph = readme.slice(readme.indexOf("The closed list of `code` values:")).split("\n\n")[0]!;
  const listed = [...paragraph.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]).filter((code) => code !== "code");
  expect(listed.sort()).toEqual([...ERROR_CODES].sort());
});
