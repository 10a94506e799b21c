/** The OpenAPI document lists every route with its schemas, and the reference page is served. */
import { expect, test } from "bun:test";
import { ACCESS, ROUTES } from "../../src/auth/access";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { resolved, schemaErrors } from "../helpers/openapi";

const t = await createTestApp();

test("GET /openapi.json lists every route built, with request and response schemas", async () => {
  const res = await t.call("GET", "/openapi.json");
  expect(res.status).toBe(200);
  const doc = resolved(res.body, res.body);
  expect(doc.openapi).toStartWith("3.");
  // Paths carry /api/v1, so the server is the document's own origin, on whatever port it runs.
  expect(doc.servers).toEqual([{ url: "/", description: "This server" }]);
  const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
    Object.keys(ops).map((method) => `${method.toUpperCase()} ${path.replace(/^\/api\/v1/, "")}`),
  );
  // The route table's rows, public ones included, and nothing else.
  expect(documented.sort()).toEqual(Object.keys(ROUTES).sort());

  const tokens = doc.paths["/api/v1/api-keys/tokens"].post;
  expect(tokens.requestBody.content["application/json"].schema.properties.ttlSeconds).toMatchObject({ minimum: 60, maximum: 900 });
  expect(tokens.responses["201"].content["application/json"].schema.properties.token).toBeDefined();
  const companies = doc.paths["/api/v1/companies"].get;
  const params = companies.parameters.map((p: { name: string }) => p.name);
  expect(params).toEqual(expect.arrayContaining(["limit", "cursor", "search"]));
  expect(companies.responses["200"].content["application/json"].schema.properties.nextCursor).toBeDefined();
});

test("integers in responses are documented as integers: the service never answers a string of digits there", async () => {
  const body = (await t.call("GET", "/openapi.json")).body;
  const doc = resolved(body, body);
  const schemaOf = (path: string, method: string, status: string) => doc.paths[path][method].responses[status].content["application/json"].schema;
  const check = schemaOf("/api/v1/check", "get", "200").properties.data.properties;
  expect(check.limit.anyOf).toEqual([{ description: "Quota: units per period", type: "integer" }, { type: "null" }]);
  const link = schemaOf("/api/v1/payment-links/{id}", "get", "200").properties.paymentLink.properties;
  expect(link.decimals).toEqual({ type: "integer" });
  expect(link.chainId.anyOf).toEqual([{ description: "EVM chain id; null on Stellar and Solana", type: "integer" }, { type: "null" }]);
  // A request still documents what it accepts: an integer, or a string of one.
  const consume = doc.paths["/api/v1/usage/consume"].post.requestBody.content["application/json"].schema.properties.quantity;
  expect(consume.anyOf.map((s: { type: string }) => s.type)).toEqual(["string", "integer"]);
});

/** Every operation in the document, with its access-matrix key (`GET /companies`). */
const operationsOf = (doc: any) =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path.replace(/^\/api\/v1/, "")}`, method, operation })),
  );

test("every operation: a unique readable operationId, its security, and a response for every status its rules imply", async () => {
  const doc = (await t.call("GET", "/openapi.json")).body;
  const operations = operationsOf(doc);
  const ids = operations.map((o) => o.operation.operationId);
  expect(new Set(ids).size).toBe(operations.length);
  for (const id of ids) expect(id).toMatch(/^[a-z]+[A-Za-z]*$/);
  expect(doc.paths["/api/v1/companies"].get.operationId).toBe("listCompanies");
  expect(doc.paths["/api/v1/companies/{id}"].patch.operationId).toBe("updateCompany");
  expect(doc.paths["/api/v1/access-tokens"].post.operationId).toBe("createAccessToken");
  expect(doc.paths["/api/v1/check"].get.operationId).toBe("checkFeature");
  for (const { route, method, operation } of operations) {
    const policy = (ACCESS as Record<string, { kinds: readonly string[]; rateLimited?: true }>)[route];
    const expected = ["413", "500"];
    if (policy) expected.push("401", "403", "415");
    if (policy?.rateLimited) expected.push("429");
    if (policy && method !== "get") expected.push("409", "422");
    if (operation.parameters?.length || operation.requestBody) expected.push("400");
    expect({ route, statuses: Object.keys(operation.responses) }).toEqual({ route, statuses: expect.arrayContaining(expected) });
    if (!policy) {
      expect(operation.security).toEqual([]);
      continue;
    }
    const schemes = operation.security.flatMap((s: object) => Object.keys(s));
    expect({ route, schemes }).toEqual({ route, schemes: policy.kinds.includes("dashboard") ? ["bearer", "dashboardCookie"] : ["bearer"] });
    expect(operation["x-access"]).toEqual(JSON.parse(JSON.stringify(policy)));
    if (operation.requestBody) expect(Object.keys(operation.requestBody.content)).toEqual(["application/json"]);
  }
  // The health check takes no credential; the audit log takes a dashboard session only, by cookie or bearer; /check a bearer only.
  expect(doc.paths["/api/v1/health"].get.responses["401"]).toBeUndefined();
  expect(doc.paths["/api/v1/audit-log"].get.security).toEqual([{ bearer: [] }, { dashboardCookie: [] }]);
  expect(doc.paths["/api/v1/check"].get.security).toEqual([{ bearer: [] }]);
  // 403 says which codes the row can produce: an embed route adds wrong_company; a dashboard-only route names its role.
  expect(doc.paths["/api/v1/check"].get.responses["403"].description).toContain("wrong_company");
  expect(doc.paths["/api/v1/events"].post.responses["403"].description).not.toContain("missing_permission");
  expect(doc.paths["/api/v1/audit-log"].get.responses["403"].description).toContain("audit:read");
  // What a route documents itself is kept: the consume's 429 is a refusal ({error, code}) or the rate limit ({error}).
  expect(doc.paths["/api/v1/usage/consume"].post.responses["429"].content["application/json"].schema.anyOf).toHaveLength(2);
});

test("the statuses the document adds everywhere are what the service answers: 413 on a bodyless GET, 415 on an authenticated GET", async () => {
  const big = "x".repeat(t.config.bodyLimitBytes + 1);
  const health = await t.call("GET", "/health", { rawBody: big });
  expect(health.status).toBe(413);
  expect(health.body).toEqual({ error: `Request body exceeds ${t.config.bodyLimitBytes} bytes` });
  const links = await t.call("GET", "/payment-links", { token: "sk_test_unknown", rawBody: "x", headers: { "content-type": "text/plain" } });
  expect(links.status).toBe(401); // credentials first
  const team = await createTeamFixture(t);
  const typed = await t.call("GET", "/payment-links", { token: team.keys.secret, rawBody: "x", headers: { "content-type": "text/plain" } });
  expect(typed.status).toBe(415);
  // A public route reads no body: no 415 there (and none documented).
  expect((await t.call("GET", "/health", { rawBody: "x", headers: { "content-type": "text/plain" } })).status).toBe(200);
});

test("GET /reference: Swagger UI from the installed package, every asset same-origin, no outside URL", async () => {
  const res = await t.call("GET", "/reference");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  // The browser is held to the same rule: nothing loads from another origin.
  expect(res.headers.get("content-security-policy")).toStartWith("default-src 'self';");
  const html = res.body as string;
  expect(html).not.toContain("https://");
  expect(html).not.toContain("http://");
  const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
  expect(urls.filter((u) => u !== "data:,").every((u) => u.startsWith("/api/v1/reference/"))).toBe(true);
  const version = (await Bun.file("node_modules/swagger-ui-dist/package.json").json()).version;
  const types: Record<string, string> = { "swagger-ui-bundle.js": "text/javascript", "swagger-ui.css": "text/css", "init.js": "text/javascript" };
  expect(urls.filter((u) => u !== "data:,").sort()).toEqual(
    Object.keys(types)
      .map((name) => `/api/v1/reference/${name}?v=${version}`)
      .sort(),
  );
  for (const [name, type] of Object.entries(types)) {
    const asset = await t.call("GET", `/reference/${name}?v=${version}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toBe(`${type}; charset=utf-8`);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  }
  const bundle = await t.call("GET", "/reference/swagger-ui-bundle.js");
  expect(bundle.body).toBe(await Bun.file("node_modules/swagger-ui-dist/swagger-ui-bundle.js").text());
  const init = (await t.call("GET", "/reference/init.js")).body as string;
  expect(init).toContain(`url: "/api/v1/openapi.json"`);
  // Swagger UI's default validator badge is an image from validator.swagger.io.
  expect(init).toContain("validatorUrl: null");
  const doc = (await t.call("GET", "/openapi.json")).body as { paths: Record<string, unknown> };
  expect(Object.keys(doc.paths).filter((p) => p.includes("reference"))).toEqual([]);
});

test("every state-changing operation takes the shared Idempotency-Key header and documents its 409 and 422", async () => {
  await t.call("GET", "/openapi.json"); // a second fetch must not add the parameter twice
  const doc = (await t.call("GET", "/openapi.json")).body;
  expect(doc.components.parameters.IdempotencyKey).toMatchObject({
    name: "Idempotency-Key",
    in: "header",
    required: false,
    schema: { minLength: 1, maxLength: 255 },
  });
  for (const route of Object.keys(ACCESS)) {
    const [method, path] = route.split(" ") as [string, string];
    const operation = doc.paths[`/api/v1${path}`][method.toLowerCase()];
    const refs = (operation.parameters ?? []).filter((p: { $ref?: string }) => p.$ref === "#/components/parameters/IdempotencyKey");
    expect(refs).toHaveLength(method === "GET" ? 0 : 1);
    if (method === "GET") continue;
    expect(operation.responses["400"]).toBeDefined();
    for (const status of ["409", "422"])
      expect(JSON.stringify(operation.responses[status])).toContain(status === "409" ? "idempotency_key_in_use" : "idempotency_key_reused");
  }
  // POST /events' own 422 (the body's idempotencyKey reused: {error, details}) is kept beside the header's coded one.
  expect(doc.paths["/api/v1/events"].post.responses["422"].content["application/json"].schema.anyOf).toHaveLength(2);
});

test("resources and error shapes are named components, referenced with $ref wherever they appear", async () => {
  const doc = (await t.call("GET", "/openapi.json")).body;
  const names = [
    "Company",
    "User",
    "Feature",
    "Event",
    "PaymentLink",
    "CheckoutSession",
    "AuditLogEntry",
    "CheckResult",
    "Entitlements",
    "Flag",
    "Token",
    "Error",
    "CodedError",
    "ValidationError",
  ];
  expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(names));
  const text = JSON.stringify(doc);
  // Named once: `$id` never reaches the document (it would re-base the references inside a schema).
  expect(text).not.toContain('"$id"');
  for (const name of names) expect(text).toContain(`"$ref":"#/components/schemas/${name}"`);
  const ref = (path: string, method: string, status: string) =>
    doc.paths[`/api/v1${path}`][method].responses[status].content["application/json"].schema;
  expect(ref("/companies", "get", "200").properties.data.items).toEqual({ $ref: "#/components/schemas/Company" });
  expect(ref("/companies/{id}", "patch", "404")).toEqual({ $ref: "#/components/schemas/Error" });
  expect(ref("/check", "get", "400")).toEqual({ $ref: "#/components/schemas/ValidationError" });
  expect(doc.paths["/api/v1/companies/{id}"].patch.requestBody.content["application/json"].schema).toEqual({
    $ref: "#/components/schemas/CompanyUpdate",
  });
  expect(doc.components.schemas.Company.properties.id).toEqual({ description: "comp_…", type: "string" });
});

test("every operation has an example for its body and its success responses, and each conforms to its schema", async () => {
  const doc = (await t.call("GET", "/openapi.json")).body;
  for (const { route, operation } of operationsOf(doc)) {
    const success = Object.entries(operation.responses as Record<string, any>).filter(([status]) => status.startsWith("2"));
    // A document (the invoice PDF, ISO 20022 XML) is not JSON: its media type is declared, with no JSON example.
    for (const [status, r] of success)
      expect({ route, status, media: Object.keys(r.content ?? {}).length > 0 }).toEqual({ route, status, media: true });
    const media = [
      ...(operation.requestBody ? [["request", operation.requestBody.content["application/json"]]] : []),
      ...success.filter(([, r]) => r.content["application/json"]).map(([status, r]) => [status, r.content["application/json"]]),
    ] as [string, { schema: object; example: unknown }][];
    expect(media.length + success.length).toBeGreaterThan(0);
    for (const [what, { schema, example }] of media) {
      expect({ route, what, example: example !== undefined }).toEqual({ route, what, example: true });
      expect({ route, what, errors: schemaErrors(doc, schema, example) }).toEqual({ route, what, errors: [] });
    }
  }
  // Composed from the resources' own examples, not invented per route.
  expect(doc.paths["/api/v1/companies"].get.responses["200"].content["application/json"].example.data[0]).toEqual(
    doc.components.schemas.Company.examples[0],
  );
});

test("real responses conform to the document's schema for their operation and status", async () => {
  const team = await createTeamFixture(t);
  const doc = (await t.call("GET", "/openapi.json")).body;
  const sk = team.keys.secret;
  await t.call("POST", "/events", {
    token: team.keys.legacy,
    body: { event_type: "identify", company: { id: "doc-co", name: "Doc Co" }, user: { id: "doc-user" } },
  });
  const calls: [string, string, Parameters<typeof t.call>[2]][] = [
    ["GET", "/health", {}],
    ["GET", "/companies", { token: sk }],
    ["GET", "/users", { token: sk }],
    ["PATCH", "/companies/doc-co", { token: sk, body: { name: "Doc Co 2", traits: { seats: 3 } } }],
    ["PATCH", "/companies/nobody", { token: sk, body: {} }],
    ["PATCH", "/companies/doc-co", { token: sk, body: { name: 7 } }],
    ["POST", "/api-keys/tokens", { token: sk, body: { company: { id: "doc-co" } } }],
    ["POST", "/access-tokens", { token: sk, body: { company: { id: "doc-co" }, user: { id: "doc-user" } } }],
    ["GET", "/check?company=doc-co&feature=nothing", { token: sk }],
    ["GET", "/entitlements?company=doc-co", { token: sk }],
    ["GET", "/audit-log", { cookie: `be_session=${team.dashboardAdmin}` }],
    ["GET", "/events", { token: team.dashboardAdmin }],
    ["GET", "/payment-links", { token: sk }],
    ["GET", "/checkout-sessions", { token: team.keys.legacy }],
    ["GET", "/checkout-sessions/cs_nothing", { token: team.keys.legacy }],
    ["DELETE", "/features/cflag_nothing", { token: sk }],
    ["GET", "/companies", {}],
    ["GET", "/audit-log", { token: sk }],
    ["GET", "/users?limit=500", { token: sk }],
    ["GET", "/users", { token: sk, rawBody: "x", headers: { "content-type": "text/plain" } }],
    ["GET", "/check?company=doc-co&feature=x", { token: sk, rawBody: "x".repeat(t.config.bodyLimitBytes + 1) }],
  ];
  const seen = new Set<string>();
  for (const [method, path, options] of calls) {
    const res = await t.call(method, path, options);
    const route = `${method} ${path.split("?")[0]!.replace(/\/(doc-co|nobody|cs_nothing|cflag_nothing)$/, "/{id}")}`;
    const documented = doc.paths[`/api/v1${route.split(" ")[1]}`][method.toLowerCase()].responses[String(res.status)];
    expect({ route, status: res.status, documented: documented !== undefined }).toEqual({ route, status: res.status, documented: true });
    expect({ route, status: res.status, errors: schemaErrors(doc, documented.content["application/json"].schema, res.body) }).toEqual({
      route,
      status: res.status,
      errors: [],
    });
    seen.add(String(res.status));
  }
  expect([...seen].sort()).toEqual(["200", "201", "400", "401", "403", "404", "413", "415"]);
});
