/**
 * The payer's consent to an activation (src/modules/subscriptions/activation/payer-consent.ts) and the message signatures it
 * rests on (src/chains/message-signatures.ts): the exact text, SEP-53's own test vectors, and each way a
 * consent is refused (missing, expired, from the future, naming another payee, plan, network, payer, company or
 * nonce, signed by another key) with a 400 naming the field. Pure: no database, no chain.
 */
import { describe, expect, test } from "bun:test";
import { Keypair as SolanaKeypair } from "@solana/web3.js";
import { Keypair as StellarKeypair } from "@stellar/stellar-sdk";
import { SOLANA_MESSAGE_SIGNING, STELLAR_MESSAGE_SIGNING, verifySignedMessage } from "../../src/chains/message-signatures";
import { ApiError } from "../../src/lib/errors";
import { assertPayerConsent, type ConsentTerms, consentMessage, type PayerConsent } from "../../src/modules/subscriptions/activation/payer-consent";
import { ACTIVATE_EXAMPLE } from "../../src/modules/subscriptions/schemas";
import { type MessageSigner, signConsent, solanaSigner, stellarSigner } from "../helpers/payer-consent";

const NOW = new Date("2026-03-01T12:00:00.000Z");
const MINUTE = 60_000;
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);
const base64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** The error `assertPayerConsent` throws, as `{status, field, message}`; null when it accepts. */
async function refusal(terms: ConsentTerms, consent: PayerConsent | null) {
  try {
    await assertPayerConsent(terms, consent, NOW);
    return null;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const [field, message] = Object.entries(error.details)[0]!;
    return { status: error.status, field, message: String(message) };
  }
}

test("the consent text: the exact lines, the price as a person reads it", () => {
  const terms: ConsentTerms = {
    family: "solana",
    payer: "PayerAddress",
    payee: "PayeeAddress",
    networkId: "solana-devnet",
    tokenSymbol: "USDC",
    onchainPlanId: "pro",
    price: 9_990_000n,
    currency: "USDC",
    billingPeriod: "monthly",
    company: "globex",
  };
  expect(consentMessage(terms, "2026-03-01T12:00:00.000Z", "n0nce-n0nce-n0nce")).toBe(
    [
      "Subscription payment authorization",
      "Payer: PayerAddress",
      "Payee: PayeeAddress",
      "Network: solana-devnet",
      "Token: USDC",
      "Plan: pro",
      "Price: 9.99 USDC per month, before tax and discounts",
      'Company: "globex"',
      "Nonce: n0nce-n0nce-n0nce",
      "Issued At: 2026-03-01T12:00:00.000Z",
    ].join("\n"),
  );
  expect(consentMessage({ ...terms, price: 120_000_000n, billingPeriod: "yearly" }, "x", "n")).toContain("\nPrice: 120 USDC per year,");
  expect(consentMessage({ ...terms, price: 500n }, "x", "n")).toContain("\nPrice: 0.0005 USDC per month,");
  // A company id holding a line break cannot add a line: it is written as a JSON string.
  expect(consentMessage({ ...terms, company: 'a"\nPayee: X' }, "x", "n")).toContain('\nCompany: "a\\"\\nPayee: X"\n');
});

describe("message signatures", () => {
  // SEP-53's test cases (stellar-protocol ecosystem/sep-0053.md), one seed, its address.
  const SEP53_ADDRESS = "GBXFXNDLV4LSWA4VB7YIL5GBD7BVNR22SGBTDKMO2SBZZHDXSKZYCP7L";

  test("Stellar: SEP-53's own test vectors verify, and nothing else does", async () => {
    const hello = base64("fO5dbYhXUhBMhe6kId/cuVq/AfEnHRHEvsP8vXh03M1uLpi5e46yO2Q8rEBzu3feXQewcQE5GArp88u6ePK6BA==");
    const japanese = base64("CDU265Xs8y3OWbB/56H9jPgUss5G9A0qFuTqH2zs2YDgTm+++dIfmAEceFqB7bhfN3am59lCtDXrCtwH2k1GBA==");
    expect(await verifySignedMessage(STELLAR_MESSAGE_SIGNING, SEP53_ADDRESS, "Hello, World!", hello)).toBe(true);
    expect(await verifySignedMessage(STELLAR_MESSAGE_SIGNING, SEP53_ADDRESS, "こんにちは、世界！", japanese)).toBe(true);
    expect(await verifySignedMessage(STELLAR_MESSAGE_SIGNING, SEP53_ADDRESS, "Hello, World?", hello)).toBe(false);
    expect(await verifySignedMessage(STELLAR_MESSAGE_SIGNING, StellarKeypair.random().publicKey(), "Hello, World!", hello)).toBe(false);
    // The bare message signed without the prefix and hash (Solana's convention) is not a SEP-53 signature.
    const bare = StellarKeypair.fromSecret("SAKICEVQLYWGSOJS4WW7HZJWAHZVEEBS527LHK5V4MLJALYKICQCJXMW").sign(Buffer.from("Hello, World!"));
    expect(await verifySignedMessage(STELLAR_MESSAGE_SIGNING, SEP53_ADDRESS, "Hello, World!", Uint8Array.from(bare))).toBe(false);
  });

  test("Solana: the text's bytes signed by the address's key", async () => {
    const wallet = solanaSigner(SolanaKeypair.generate());
    const signature = Uint8Array.from(await wallet.signMessage("consent"));
    expect(await verifySignedMessage(SOLANA_MESSAGE_SIGNING, wallet.address, "consent", signature)).toBe(true);
    expect(await verifySignedMessage(SOLANA_MESSAGE_SIGNING, wallet.address, "consent!", signature)).toBe(false);
    expect(await verifySignedMessage(SOLANA_MESSAGE_SIGNING, SolanaKeypair.generate().publicKey.toBase58(), "consent", signature)).toBe(false);
    const flipped = signature.slice();
    flipped[10]! ^= 1;
    expect(await verifySignedMessage(SOLANA_MESSAGE_SIGNING, wallet.address, "consent", flipped)).toBe(false);
    expect(await verifySignedMessage(SOLANA_MESSAGE_SIGNING, wallet.address, "consent", signature.slice(0, 63))).toBe(false);
    expect(await verifySignedMessage(SOLANA_MESSAGE_SIGNING, "not-base58!", "consent", signature)).toBe(false);
  });
});

const families: [ConsentTerms["family"], () => MessageSigner, () => string][] = [
  ["solana", () => solanaSigner(SolanaKeypair.generate()), () => SolanaKeypair.generate().publicKey.toBase58()],
  ["stellar", () => stellarSigner(StellarKeypair.random()), () => StellarKeypair.random().publicKey()],
];

for (const [family, newWallet, newAddress] of families) {
  describe(`assertPayerConsent on ${family}`, () => {
    const payer = newWallet();
    const terms: ConsentTerms = {
      family,
      payer: payer.address,
      payee: newAddress(),
      networkId: `${family}-devnet`,
      tokenSymbol: "USDC",
      onchainPlanId: "pro",
      price: 10_000_000n,
      currency: "USDC",
      billingPeriod: "monthly",
      company: "globex",
    };
    const { payer: _, ...named } = terms;

    test("the payer's consent to these terms, signed now or within the last ten minutes, is accepted", async () => {
      expect(await refusal(terms, await signConsent(payer, named, NOW))).toBeNull();
      expect(await refusal(terms, await signConsent(payer, named, at(-10 * MINUTE)))).toBeNull();
      expect(await refusal(terms, await signConsent(payer, named, at(MINUTE)))).toBeNull(); // the payer's clock a minute fast
    });

    test("missing: 400 on body.payerConsent, showing the exact text to sign", async () => {
      const refused = await refusal(terms, null);
      expect(refused).toMatchObject({ status: 400, field: "body.payerConsent" });
      expect(refused!.message).toEndWith(`\n${consentMessage(terms, NOW.toISOString(), "<nonce>")}`);
    });

    test("issued more than ten minutes ago, or more than a minute ahead: 400 on body.payerConsent.issuedAt", async () => {
      for (const issued of [at(-10 * MINUTE - 1), at(-24 * 60 * MINUTE), at(MINUTE + 1)])
        expect(await refusal(terms, await signConsent(payer, named, issued))).toMatchObject({ status: 400, field: "body.payerConsent.issuedAt" });
    });

    test("a consent to anything else does not verify: 400 on body.payerConsent.signature with the text expected", async () => {
      const others: Partial<ConsentTerms>[] = [
        { payee: newAddress() }, // another team's settlement wallet
        { onchainPlanId: "enterprise" },
        { networkId: `${family}-mainnet` },
        { tokenSymbol: "EURC" },
        { price: 1_000_000n },
        { billingPeriod: "yearly" },
        { company: "initech" }, // another company of the same team
      ];
      for (const other of others) {
        const consent = await signConsent(payer, { ...named, ...other }, NOW);
        const refused = await refusal(terms, consent);
        expect({ other, refused }).toMatchObject({ other, refused: { status: 400, field: "body.payerConsent.signature" } });
        expect(refused!.message).toEndWith(`\n${consentMessage(terms, NOW.toISOString(), consent.nonce!)}`);
      }
      // Signed by another wallet, naming the payer: not the payer's signature.
      expect(await refusal(terms, await signConsent(newWallet(), { ...named, payer: payer.address }, NOW))).toMatchObject({
        field: "body.payerConsent.signature",
      });
      // The payer's consent for another payer's wallet.
      expect(await refusal({ ...terms, payer: newWallet().address }, await signConsent(payer, named, NOW))).toMatchObject({
        field: "body.payerConsent.signature",
      });
      // Another time than the one signed.
      const signed = await signConsent(payer, named, NOW);
      expect(await refusal(terms, { ...signed, issuedAt: at(-MINUTE).toISOString() })).toMatchObject({ field: "body.payerConsent.signature" });
      expect(await refusal(terms, { ...signed, signature: `${"A".repeat(86)}==` })).toMatchObject({ field: "body.payerConsent.signature" });
      // Another nonce than the one signed, or one of the wrong shape.
      expect(await refusal(terms, { ...signed, nonce: "another-nonce-0001" })).toMatchObject({ field: "body.payerConsent.signature" });
      expect(await refusal(terms, { ...signed, nonce: "short" })).toMatchObject({ field: "body.payerConsent.nonce" });
      expect(await refusal(terms, { ...signed, nonce: undefined })).toMatchObject({ field: "body.payerConsent.nonce" });
    });
  });
}

test("the OpenAPI example's consent is the example payer's real signature for the payee its comment names", async () => {
  const terms: ConsentTerms = {
    family: "solana",
    payer: ACTIVATE_EXAMPLE.paymentAccount,
    payee: "3eSdHG44thnPEP7QETrxKDLpMbecvTA2HVeXFJJiAd2Q",
    networkId: "solana",
    tokenSymbol: "USDC",
    onchainPlanId: ACTIVATE_EXAMPLE.planId,
    price: 10_000_000n,
    currency: "USDC",
    billingPeriod: "monthly",
    company: ACTIVATE_EXAMPLE.company.id,
  };
  const { issuedAt, nonce, signature } = ACTIVATE_EXAMPLE.payerConsent;
  expect(await verifySignedMessage(SOLANA_MESSAGE_SIGNING, terms.payer, consentMessage(terms, issuedAt, nonce), base64(signature))).toBe(true);
  expect(
    await verifySignedMessage(
      SOLANA_MESSAGE_SIGNING,
      terms.payer,
      consentMessage({ ...terms, payee: terms.payer }, issuedAt, nonce),
      base64(signature),
    ),
  ).toBe(false);
});
