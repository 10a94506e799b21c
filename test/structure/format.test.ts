/**
 * One formatter for the codebase (Biome, biome.json), and its two lint rules (no unused import or
 * variable): the suite fails on a file it would change, so formatting never drifts and never shows up in
 * an unrelated diff. `npx biome check --write .` fixes it.
 */
import { expect, test } from "bun:test";

test("every source, test and bench file is formatted and imports only what it uses, as biome.json says", async () => {
  const biome = Bun.spawn(["node_modules/.bin/biome", "check", "."], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(biome.stdout).text(), new Response(biome.stderr).text(), biome.exited]);
  expect({ code, output: code === 0 ? "" : `${out}${err}` }).toEqual({ code: 0, output: "" });
});
