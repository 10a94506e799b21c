/**
 * The hot routes document their reply schemas without Elysia checking each reply against them (see
 * src/http/openapi.ts): here every reply shape they send, success and refusal, is checked against the
 * documented schema instead, and the OpenAPI document still carries those schemas.
 */
import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import type { TSchema } from "elysia";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { createCatalogFixture, createCompanyOnPlan } from "../helpers/catalog";
import { CheckResponse, ConsumeResponse, EntitlementsResponse, FlagResponse } from "../../src/modules/entitlements/schemas";
import { CodedErrorBody, ErrorBody, ValidationErrorBody } from "../../src/http/error-schemas";
import { EventAccepted } from "../../src/modules/events/schemas";
import { resolved } from "../helpers/openapi";

const t = await createTestApp({ RATE_LIMIT_ENABLED: "false" });
const team = await createTeamFixture(t);
const catalog = await createCatalogFixture(t, team.teamId);
await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "schema-co", catalog.planId, 10n);
const sk = team.keys.secret;

const conforms = (schema: TSchema, res: { status: number; body: unknown }, status: number) => {
  expect(res.status).toBe(status);
  expect([...Value.Errors(schema, res.body)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
};

describe("replies of the hot routes match their documented schemas", () => {
  test("GET /check: 200, 400, 404", async () => {
    conforms(CheckResponse, await t.call("GET", "/check?company=schema-co&feature=api-calls", { token: sk }), 200);
    conforms(CheckResponse, await t.call("GET", "/check?company=schema-co&feature=ai-tokens&quantity=3", { token: sk }), 200);
    conforms(CheckResponse, await t.call("GET", "/check?company=nobody&feature=sso", { token: sk }), 200);
    conforms(ValidationErrorBody, await t.call("GET", "/check?feature=sso", { token: sk }), 400);
    conforms(ErrorBody, await t.call("GET", "/check?company=schema-co&feature=nothing", { token: sk }), 404);
  });

  test("GET /flags/check and GET /entitlements: 200", async () => {
    conforms(FlagResponse, await t.call("GET", "/flags/check?company=schema-co&flag=sso", { token: sk }), 200);
    conforms(EntitlementsResponse, await t.call("GET", "/entitlements?company=schema-co", { token: sk }), 200);
  });

  test("POST /usage/consume: 200, 402, 429", async () => {
    conforms(
      ConsumeResponse,
      await t.call("POST", "/usage/consume", { token: sk, body: { company: "schema-co", feature: "api-calls", idempotencyKey: "schema-1" } }),
      200,
    );
    conforms(
      ConsumeResponse,
      await t.call("POST", "/usage/consume", { token: sk, body: { company: "schema-co", feature: "api-calls", idempotencyKey: "schema-1" } }),
      200,
    );
    conforms(
      CodedErrorBody,
      await t.call("POST", "/usage/consume", { token: sk, body: { company: "schema-co", feature: "ai-tokens", quantity: 1000 } }),
      402,
    );
    conforms(
      CodedErrorBody,
      await t.call("POST", "/usage/consume", { token: sk, body: { company: "schema-co", feature: "api-calls", quantity: 100 } }),
      429,
    );
  });

  test("POST /events: 200", async () => {
    conforms(
      EventAccepted,
      await t.call("POST", "/events", { token: team.keys.legacy, body: { event_type: "track", name: "api-calls", company: { id: "schema-co" } } }),
      200,
    );
  });

  test("the OpenAPI document still carries them", async () => {
    const doc = (await t.call("GET", "/openapi.json")).body;
    const schemaOf = (path: string, method: string, status: string) =>
      resolved(doc, doc.paths[`/api/v1${path}`][method].responses[status].content["application/json"].schema);
    expect(schemaOf("/check", "get", "200").properties.data.properties.remaining).toBeDefined();
    expect(schemaOf("/flags/check", "get", "200").properties.data.properties.value).toBeDefined();
    expect(schemaOf("/entitlements", "get", "200").properties.data.properties.features).toBeDefined();
    expect(schemaOf("/usage/consume", "post", "402").properties.code).toBeDefined();
    expect(schemaOf("/events", "post", "200").properties.ok).toBeDefined();
  });
});
