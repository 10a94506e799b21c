/** Which addresses from data a page prints as a link: https, and http on a local address only. */
import { expect, test } from "bun:test";
import { linkable } from "../../src/ui/layout";

test("linkable: https and local http become links; javascript:, data:, other schemes and garbage do not", () => {
  expect(linkable("https://etherscan.io/tx/0xab")).toBe("https://etherscan.io/tx/0xab");
  expect(linkable("http://127.0.0.1:4000/hook")).toBe("http://127.0.0.1:4000/hook");
  for (const bad of [
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    " javascript:alert(1)",
    "data:text/html,x",
    "http://evil.example/",
    "//evil",
    "not a url",
    "",
    null,
    undefined,
  ])
    expect(linkable(bad)).toBeUndefined();
});
