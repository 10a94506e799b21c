/**
 * The pure x402 rules (src/modules/x402/compute.ts): which prices a 402 can offer, reading headers, matching a payment
 * to an offer, the validity window; and the served OpenAPI document describing the headers on both operations.
 */
import { describe, expect, test } from "bun:test";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import { BUILT_IN_NETWORKS, ChainRegistry } from "../../src/lib/networks";
import { matchOffer, MAX_TIMEOUT_SECONDS, offersOf, readPaymentHeader, windowProblem, type ReadPayment } from "../../src/modules/x402/compute";
import { createTestApp } from "../helpers/app";

const registry = new ChainRegistry(BUILT_IN_NETWORKS);
const WALLET = "0x2222222222222222222222222222222222222222";
const BASE_SEPOLIA_USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
const SEPOLIA_USDC = "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238";
const prices = [
  { network: "base-sepolia", token: "USDC", amount: "1000000" },
  { network: "sepolia", token: "USDC", amount: "2000000" },
  { network: "base", token: "USDC", amount: "1000000" }, // a main network: never offered to development
];
const wallets = [
  { network: "base-sepolia", wallet: WALLET, tokens: [] },
  { network: "sepolia", wallet: WALLET, tokens: ["ETH"] }, // accepts only ETH there: USDC is not offered
  { network: "base", wallet: WALLET, tokens: [] },
];
const offers = offersOf(registry, "development", prices, wallets);
const authorization = {
  from: `0x${"5".repeat(40)}`,
  to: WALLET,
  value: "1000000",
  validAfter: "0",
  validBefore: "2000000000",
  nonce: `0x${"0".repeat(64)}`,
};
const payment = (p: Partial<ReadPayment> = {}): ReadPayment => ({
  version: 2,
  scheme: "exact",
  network: "eip155:84532",
  accepted: offers[0]!.requirement,
  authorization,
  signature: `0x${"1".repeat(130)}`,
  ...p,
});

describe("offersOf", () => {
  test("only prices on networks of the environment, where a settlement wallet accepts the token", () => {
    expect(offers.map((o) => o.requirement)).toEqual([
      {
        scheme: "exact",
        network: "eip155:84532",
        asset: BASE_SEPOLIA_USDC,
        amount: "1000000",
        payTo: WALLET,
        maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
        extra: { name: "USDC", version: "2" },
      },
    ]);
    expect(offersOf(registry, "production", prices, wallets).map((o) => o.requirement.network)).toEqual(["eip155:8453"]);
    const usdcWallet = [{ network: "sepolia", wallet: WALLET, tokens: ["usdc"] }];
    expect(offersOf(registry, "development", prices, usdcWallet).map((o) => o.requirement.asset)).toEqual([SEPOLIA_USDC]);
    expect(offersOf(registry, "development", prices, [])).toEqual([]);
  });
});

describe("matchOffer", () => {
  test("v2: the accepted requirement must be ours, and the authorization must pay it exactly", () => {
    expect(matchOffer(payment(), offers)).toEqual({ ok: true, value: offers[0]! });
    expect(matchOffer(payment({ accepted: { ...offers[0]!.requirement, payTo: WALLET.toUpperCase().replace("0X", "0x") } }), offers).ok).toBe(true);
    expect(matchOffer(payment({ authorization: { ...authorization, value: "1000000" } }), offers).ok).toBe(true);
    expect(matchOffer(payment({ authorization: { ...authorization, value: "999999" } }), offers)).toEqual({
      ok: false,
      reason: "invalid_exact_evm_payload_authorization_value_mismatch",
    });
  });

  test("v1: the network by registry id or CAIP-2, the first price there", () => {
    expect(matchOffer(payment({ version: 1, accepted: null, network: "base-sepolia" }), offers).ok).toBe(true);
    expect(matchOffer(payment({ version: 1, accepted: null, network: "eip155:84532" }), offers).ok).toBe(true);
    expect(matchOffer(payment({ version: 1, accepted: null, network: "base" }), offers)).toEqual({ ok: false, reason: "invalid_network" });
  });
});

describe("windowProblem", () => {
  const at = (validAfter: number, validBefore: number) => ({ ...authorization, validAfter: String(validAfter), validBefore: String(validBefore) });
  test("validAfter <= now; validBefore at least 6 s ahead", () => {
    expect(windowProblem(at(1000, 2000), 1000)).toBeNull();
    expect(windowProblem(at(1001, 2000), 1000)).toBe("invalid_exact_evm_payload_authorization_valid_after");
    expect(windowProblem(at(0, 1006), 1000)).toBeNull();
    expect(windowProblem(at(0, 1005), 1000)).toBe("invalid_exact_evm_payload_authorization_valid_before");
  });
});

describe("readPaymentHeader", () => {
  test("v2 and v1 shapes; anything else is invalid_payload; a version other than the header's is named", () => {
    const v2 = encodePaymentSignatureHeader({
      x402Version: 2,
      accepted: offers[0]!.requirement,
      payload: { authorization, signature: `0x${"1".repeat(130)}` },
    });
    expect(readPaymentHeader(v2, 2)).toMatchObject({ ok: true, value: { version: 2, network: "eip155:84532", authorization } });
    expect(readPaymentHeader(v2, 1)).toEqual({ ok: false, reason: "invalid_x402_version" });
    const unsigned = encodePaymentSignatureHeader({ x402Version: 2, accepted: offers[0]!.requirement, payload: { authorization } });
    expect(readPaymentHeader(unsigned, 2)).toEqual({ ok: false, reason: "invalid_payload" });
    const badNonce = encodePaymentSignatureHeader({
      x402Version: 2,
      accepted: offers[0]!.requirement,
      payload: { authorization: { ...authorization, nonce: "0x12" }, signature: "0x11" },
    });
    expect(readPaymentHeader(badNonce, 2)).toEqual({ ok: false, reason: "invalid_payload" });
    expect(readPaymentHeader("%%%", 2)).toEqual({ ok: false, reason: "invalid_payload" });
  });
});

describe("the OpenAPI document", () => {
  test("POST /events and POST /usage/consume document the payment headers they take and answer with", async () => {
    const t = await createTestApp();
    const doc = (await t.call("GET", "/openapi.json")).body;
    for (const path of ["/api/v1/events", "/api/v1/usage/consume"]) {
      const operation = doc.paths[path].post;
      expect(Object.keys(operation.responses["402"].headers)).toEqual(["PAYMENT-REQUIRED", "PAYMENT-RESPONSE", "X-PAYMENT-RESPONSE"]);
      // A paid request's settlement accompanies whatever the request then answers.
      for (const [status, response] of Object.entries(operation.responses as Record<string, { headers?: object }>))
        expect([status, ...Object.keys(response.headers ?? {})]).toEqual(expect.arrayContaining([status, "PAYMENT-RESPONSE", "X-PAYMENT-RESPONSE"]));
      const names = operation.parameters.map((p: { name?: string; $ref?: string }) => p.name ?? p.$ref);
      expect(names).toEqual(expect.arrayContaining(["PAYMENT-SIGNATURE", "X-PAYMENT"]));
      expect(operation.description).toContain("PAYMENT-REQUIRED");
    }
  });
});
