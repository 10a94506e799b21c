/**
 * The service on the x402 bed (test/helpers/chains/x402.ts): a team with its settlement wallet on anvil, the
 * entitlement catalog of test/helpers/catalog.ts (`ai-tokens` costs 2 credits a use), a company without credits,
 * the pack a 402 offers (10 credits for 1 USDC on anvil), and the paying agent's fetch: @x402/fetch's
 * wrapFetchWithPayment with @x402/evm's ExactEvmScheme over the payer's viem account, aimed at the service's handler
 * (every answer held to the served OpenAPI document, as the request helper does).
 */
import { afterAll, setSystemTime } from "bun:test";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { HDAccount } from "viem/accounts";
import { serverFetch } from "../../src/app";
import { createCreditPack } from "../../src/modules/catalog/credit-packs/edit";
import { setSettlementWallet } from "../../src/modules/invoices/settings/manage";
import { OPERATOR } from "../../src/modules/teams/roles";
import { createTestApp, type TestApp } from "./app";
import { testNowIsFixed } from "./clock";
import { createCatalogFixture, createCompanyOnPlan } from "./catalog";
import { x402Bed, type X402Bed } from "./chains/x402";
import { contractChecked } from "./contract";
import { createTeamFixture } from "./fixtures";

export const PACK_PRICE = 1_000_000n;
export const PACK_CREDITS = 10n;

/** A team set up to sell the pack: settlement wallet `wallet` on anvil, the catalog, one company without credits. */
export async function x402Team(t: TestApp, bed: X402Bed, wallet: string, name = "x402 team") {
  const team = await createTeamFixture(t, name);
  const tenant = { teamId: team.teamId, environment: "development" as const };
  const now = () => new Date(t.clock.now());
  await setSettlementWallet({ sql: t.db.sql, registry: t.config.chains }, { tenant, actor: OPERATOR, now: now() }, "anvil", { wallet });
  const catalog = await createCatalogFixture(t, team.teamId);
  const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "agent-co", catalog.planId);
  const deps = { sql: t.db.sql, chains: t.config.chains, now };
  const pack = await createCreditPack(deps, tenant, OPERATOR, {
    key: "starter",
    name: "Starter",
    credits: String(PACK_CREDITS),
    prices: [{ network: "anvil", token: "USDC", amount: String(PACK_PRICE) }],
    offerOnPaymentRequired: true,
  });
  /** the company's spendable credits */
  const credits = async () =>
    BigInt(
      (
        await t.db.sql`select coalesce(sum(remaining), 0)::text as n from credit_grants where team_id = ${team.teamId} and company_id = ${companyId}`
      )[0]!.n,
    );
  return { team, tenant, catalog, companyId, pack, credits };
}

/** The bed, stopped after the file's tests, and the service on it (`env`: more of its configuration). */
export async function x402Service(env: Record<string, string> = {}) {
  const bed = await x402Bed();
  afterAll(() => bed.stop());
  const t = await createTestApp({
    CHAIN_REGISTRY_FILE: bed.registryFile,
    SUBSCRIPTION_EVM_OPERATOR_KEY: bed.operatorKey,
    RATE_LIMIT_ENABLED: "false",
    ...env,
  });
  const handle = contractChecked(serverFetch(t.deps, t.app));
  const fetchService = (input: RequestInfo | URL, init?: RequestInit) => handle(input instanceof Request ? input : new Request(input, init));
  /**
   * The agent's fetch: pays 402 terms with `signer`'s EIP-3009 authorizations, as a real agent would, only in the
   * test USDC and at most the pack's price a payment (x402's client refuses unknown assets unless allowed).
   */
  const payingFetch = (signer: HDAccount = bed.payer) => {
    const paying = wrapFetchWithPayment(
      fetchService as typeof fetch,
      x402Client.fromConfig({
        schemes: [{ network: "eip155:*", client: new ExactEvmScheme(signer) }],
        spendControls: { allowedAssets: [{ network: "eip155:31337", asset: bed.usdc, maxAmountPerPayment: String(PACK_PRICE) }] },
      }),
    );
    // The client signs validBefore from the wall clock; under TEST_NOW the service and the chain live at another instant,
    // so the wall clock is held there for the call (and given back after it).
    return async (input: RequestInfo | URL, init?: RequestInit) => {
      if (!testNowIsFixed()) return paying(input, init);
      setSystemTime(new Date(t.clock.now()));
      try {
        return await paying(input, init);
      } finally {
        setSystemTime();
      }
    };
  };
  return { bed, t, fetchService, payingFetch, main: await x402Team(t, bed, bed.payee) };
}

export const url = (path: string) => `http://localhost/api/v1${path}`;

/** A JSON POST as a client sends it. */
export const post = (token: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

/** The PAYMENT-REQUIRED header of a response, decoded. */
export const termsOf = (response: Response | { headers: Headers }) => {
  const header = response.headers.get("payment-required");
  return header === null ? null : decodePaymentRequiredHeader(header);
};
