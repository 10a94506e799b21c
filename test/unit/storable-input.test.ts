/** The one check of decoded input (src/lib/storable-input.ts), on the query and path values Elysia hands it too. */
import { expect, test } from "bun:test";
import { unstorableInput } from "../../src/lib/storable-input";

test("a lone surrogate in a query or path value is named with its field; a surrogate pair is fine", () => {
  const lone = "Must not contain a lone UTF-16 surrogate (\\ud800-\\udfff without its pair)";
  expect(unstorableInput({ search: "a\ud800" }, "query")).toEqual({ "query.search": lone });
  expect(unstorableInput({ id: "\udc00b" }, "path")).toEqual({ "path.id": lone });
  expect(unstorableInput({ ["k\ud800"]: "v" }, "query")).toEqual({ "query.k\ud800": lone });
  expect(unstorableInput({ search: "\ud83d\ude00", id: "plain" }, "query")).toBeNull();
});
