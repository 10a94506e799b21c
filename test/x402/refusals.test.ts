/**
 * Every refused x402 payment: a 402 with the spec's body and PAYMENT-REQUIRED whose `error` names the reason,
 * nothing granted, no payment recorded, the request not run, and the chain unchanged (balances read before and
 * after, the authorization's nonce still unused on chain).
 */
import { describe, expect, test } from "bun:test";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentRequirements } from "@x402/core/types";
import { foundry } from "viem/chains";
import type { Hex } from "viem";
import type { Eip3009Authorization } from "../../src/chains/x402-types";
import { authorizationTypedData, EIP3009_ABI } from "../../src/chains/evm/eip3009";
import { account } from "../helpers/chains/anvil";
import { USDC_DOMAIN } from "../helpers/chains/x402";
import { PACK_PRICE, post, termsOf, url, x402Service } from "../helpers/x402";

const { bed, t, fetchService, main } = await x402Service();
const sql = t.db.sql;
const nowSeconds = () => Math.floor(t.clock.now() / 1000);
const offered = termsOf(await fetchService(url("/usage/consume"), post(main.team.keys.secret, { company: "agent-co", feature: "ai-tokens" })))!
  .accepts[0]!;
const stranger = account(6);
const broke = account(7);

type Signed = { authorization: Eip3009Authorization; signature: string };

/** Sends `header` as PAYMENT-SIGNATURE (or X-PAYMENT) and checks the refusal changed nothing anywhere. */
async function expectRefused(reason: string, header: string, signed?: Signed, headerName = "payment-signature") {
  const payments = async () => (await sql`select count(*)::int as n from x402_payments`)[0]!.n as number;
  const before = { balances: await bed.balances(), credits: await main.credits(), payments: await payments() };
  const res = await fetchService(
    url("/usage/consume"),
    post(main.team.keys.secret, { company: "agent-co", feature: "ai-tokens" }, { [headerName]: header }),
  );
  expect(res.status).toBe(402);
  expect(await res.json()).toEqual({ error: "Insufficient credits", code: "insufficient_credits" });
  const terms = termsOf(res)!;
  expect(terms.error).toBe(reason);
  expect(terms.accepts).toEqual([offered]);
  expect(res.headers.get("payment-response")).toBeNull();
  expect(await bed.balances()).toEqual(before.balances);
  expect(await main.credits()).toBe(before.credits);
  expect(await payments()).toBe(before.payments); // no payment of any status recorded
  if (signed) expect(await bed.nonceUsed(signed.authorization.from as Hex, signed.authorization.nonce as Hex)).toBe(false);
}

const v2 = (payload: Signed, accepted: PaymentRequirements = offered) => encodePaymentSignatureHeader({ x402Version: 2, accepted, payload });
const price = String(PACK_PRICE);

describe("refused before the chain is asked", () => {
  test("expired: validBefore passed, or too close to land before it", async () => {
    const expired = await bed.authorize({ to: bed.payee, value: price, validBefore: String(nowSeconds() - 1) });
    await expectRefused("invalid_exact_evm_payload_authorization_valid_before", v2(expired), expired);
    const closing = await bed.authorize({ to: bed.payee, value: price, validBefore: String(nowSeconds() + 3) });
    await expectRefused("invalid_exact_evm_payload_authorization_valid_before", v2(closing), closing);
  });

  test("not yet valid: validAfter in the future", async () => {
    const early = await bed.authorize({
      to: bed.payee,
      value: price,
      validAfter: String(nowSeconds() + 3600),
      validBefore: String(nowSeconds() + 7200),
    });
    await expectRefused("invalid_exact_evm_payload_authorization_valid_after", v2(early), early);
  });

  test("underpaid: an authorization or an accepted amount below the price; overpaid too (exact is exact)", async () => {
    const less = await bed.authorize({ to: bed.payee, value: String(PACK_PRICE - 1n) });
    await expectRefused("invalid_exact_evm_payload_authorization_value_mismatch", v2(less), less);
    await expectRefused("invalid_exact_evm_payload_authorization_value_mismatch", v2(less, { ...offered, amount: String(PACK_PRICE - 1n) }), less);
    const more = await bed.authorize({ to: bed.payee, value: String(PACK_PRICE + 1n) });
    await expectRefused("invalid_exact_evm_payload_authorization_value_mismatch", v2(more), more);
  });

  test("wrong payee: the authorization pays another wallet, or the accepted terms name one", async () => {
    const elsewhere = await bed.authorize({ to: bed.otherPayee, value: price });
    await expectRefused("invalid_exact_evm_payload_recipient_mismatch", v2(elsewhere), elsewhere);
    const right = await bed.authorize({ to: bed.payee, value: price });
    await expectRefused("invalid_exact_evm_payload_recipient_mismatch", v2(right, { ...offered, payTo: bed.otherPayee }), right);
  });

  test("wrong asset, wrong network, wrong scheme", async () => {
    const signed = await bed.authorize({ to: bed.payee, value: price });
    await expectRefused("invalid_payment_requirements", v2(signed, { ...offered, asset: `0x${"ab".repeat(20)}` }), signed);
    await expectRefused("invalid_network", v2(signed, { ...offered, network: "eip155:8453" }), signed);
    await expectRefused("unsupported_scheme", v2(signed, { ...offered, scheme: "upto" }), signed);
  });

  test("malformed headers: not base64 JSON, not a payment payload, the other version's shape", async () => {
    await expectRefused("invalid_payload", "not base64 at all!");
    await expectRefused("invalid_payload", Buffer.from("{not json").toString("base64"));
    await expectRefused("invalid_payload", Buffer.from(JSON.stringify({ x402Version: 2, accepted: offered })).toString("base64"));
    const signed = await bed.authorize({ to: bed.payee, value: price });
    await expectRefused(
      "invalid_x402_version",
      Buffer.from(JSON.stringify({ x402Version: 1, scheme: "exact", network: "anvil", payload: signed })).toString("base64"),
      signed,
    );
    await expectRefused("invalid_payload", "x".repeat(10_000), undefined, "x-payment");
  });

  test("malformed numbers and signatures are invalid_payload, not a chain error: past uint256, odd or short hex", async () => {
    const signed = await bed.authorize({ to: bed.payee, value: price });
    const pastUint256 = (2n ** 256n).toString(); // 78 digits
    const withAuth = (a: Partial<Eip3009Authorization>) => ({ ...signed, authorization: { ...signed.authorization, ...a } });
    await expectRefused("invalid_payload", v2(withAuth({ validBefore: pastUint256 })), signed);
    await expectRefused("invalid_payload", v2(withAuth({ validAfter: "9".repeat(78) })), signed);
    await expectRefused("invalid_payload", v2(signed, { ...offered, amount: pastUint256 }), signed);
    await expectRefused("invalid_payload", v2({ ...signed, signature: `${signed.signature}0` }), signed);
    await expectRefused("invalid_payload", v2({ ...signed, signature: signed.signature.slice(0, -2) }), signed); // 64 bytes
    await expectRefused("invalid_payload", v2({ ...signed, signature: "0x123" }), signed);
    const v1 = { x402Version: 1, scheme: "exact", network: "anvil", payload: withAuth({ validBefore: pastUint256 }) };
    await expectRefused("invalid_payload", Buffer.from(JSON.stringify(v1)).toString("base64"), signed, "x-payment");
  });
});

describe("refused by what the chain says", () => {
  test("bad signature: signed by another key, or the signed value altered", async () => {
    const forged = await bed.authorize({ from: bed.payer.address, to: bed.payee, value: price }, stranger);
    await expectRefused("invalid_exact_evm_payload_signature", v2(forged), forged);
    const signed = await bed.authorize({ to: bed.payee, value: String(PACK_PRICE * 2n) });
    const altered = { ...signed, authorization: { ...signed.authorization, value: price } };
    await expectRefused("invalid_exact_evm_payload_signature", v2(altered), altered);
  });

  test("insufficient funds: the payer's balance does not cover the price", async () => {
    const signed = await bed.authorize({ to: bed.payee, value: price }, broke);
    await expectRefused("insufficient_funds", v2(signed), signed);
  });

  test("replayed on chain: an authorization already used elsewhere is refused, and nothing more moves", async () => {
    const signed = await bed.authorize({ to: bed.payee, value: price });
    // Someone else settles it first, straight on the token.
    const { authorization: a } = signed;
    const sig = signed.signature as Hex;
    const typed = authorizationTypedData({ ...USDC_DOMAIN, chainId: 31337, verifyingContract: bed.usdc }, a);
    const m = typed.message;
    const hash = await bed.anvil.client.writeContract({
      address: bed.usdc,
      abi: EIP3009_ABI,
      functionName: "transferWithAuthorization",
      args: [
        m.from,
        m.to,
        m.value,
        m.validAfter,
        m.validBefore,
        m.nonce,
        Number(`0x${sig.slice(130, 132)}`),
        `0x${sig.slice(2, 66)}`,
        `0x${sig.slice(66, 130)}`,
      ],
      account: account(0),
      chain: foundry,
    });
    await bed.anvil.client.waitForTransactionReceipt({ hash });
    const before = await bed.balances();
    const credits = await main.credits();
    const res = await fetchService(
      url("/usage/consume"),
      post(main.team.keys.secret, { company: "agent-co", feature: "ai-tokens" }, { "payment-signature": v2(signed) }),
    );
    expect(res.status).toBe(402);
    expect(termsOf(res)?.error).toBe("invalid_exact_evm_nonce_already_used");
    expect(await bed.balances()).toEqual(before);
    expect(await main.credits()).toBe(credits);
  });
});
