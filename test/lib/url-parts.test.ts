import { expect, test } from "bun:test";
import { urlParts, urlPath } from "../../src/lib/url-parts";

test("urlParts finds the path and the query of an absolute URL", () => {
  expect(urlParts("http://127.0.0.1:3000/api/v1/check?company=a&feature=b")).toEqual({ pathStart: 21, queryStart: 34 });
  expect(urlParts("https://billing.example.com/api/v1/health")).toEqual({ pathStart: 27, queryStart: -1 });
});

test("urlPath never keeps the query string", () => {
  expect(urlPath("http://localhost/api/v1/check?company=a%40b.com")).toBe("/api/v1/check");
  expect(urlPath("http://localhost/api/v1/health")).toBe("/api/v1/health");
  expect(urlPath("http://localhost/?x=1")).toBe("/");
});
