/**
 * zkTLS proofs in the Reclaim format, verified offline (src/modules/proofs/compute.ts): a published proof checks
 * against its real attestor, proofs signed here with test attestor keys pass, and every tampering is refused
 * with its reason. The clock is an input.
 */
import { describe, expect, test } from "bun:test";
import type { PrivateKeyAccount } from "viem/accounts";
import { canonicalJson, verifyReclaimProof, type ReclaimProof } from "../../src/modules/proofs/compute";
import { ATTESTOR_A, ATTESTOR_B, signedProof as signedProofAt, STRANGER } from "../helpers/zktls";

// A proof published by Reclaim's own example (reclaimprotocol/fuel-sdk-onchain-integration, frontend/src/utils/constants.ts).
const PUBLISHED: ReclaimProof = {
  identifier: "0x937c69accba0809e876033ab5394b6b905104881a8a00f7ae0a6f47bf0e24e1e",
  claimData: {
    provider: "http",
    parameters:
      '{"additionalClientOptions":{},"body":"","geoLocation":"","headers":{"Referer":"https://github.com/settings/profile","Sec-Fetch-Mode":"same-origin","User-Agent":"Mozilla/5.0 (Linux; Android 15) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.6668.69 Mobile Safari/537.36"},"method":"GET","paramValues":{"username":"hadi-saleh14"},"responseMatches":[{"invert":false,"type":"contains","value":"<span class=\\"color-fg-muted\\">({{username}})</span>"}],"responseRedactions":[{"jsonPath":"","regex":"<span class=\\"color-fg-muted\\">\\\\((.*)\\\\)</span>","xPath":""}],"url":"https://github.com/settings/profile"}',
    owner: "0x08b0292bef7ef2ef839d9f95b709401140ef0b7b",
    timestampS: 1736693048,
    context:
      '{"contextAddress":"user\'s address","contextMessage":"for acmecorp.com on 1st january","extractedParameters":{"username":"hadi-saleh14"},"providerHash":"0x9d413beed5ff5982df9460e8f4c3d118febd36839f5c9558980856a07369cca5"}',
    identifier: "0x937c69accba0809e876033ab5394b6b905104881a8a00f7ae0a6f47bf0e24e1e",
    epoch: 1,
  },
  signatures: [
    "0x55bb3f5b4b48f5292fb7230f74d4cb5a67c2b0409f53997a1636942c36feed5a3311229e74b85a003515183c70f6b8350397fe290f09c7170dbca11eebfe74291c",
  ],
  witnesses: [{ id: "0x244897572368eadf65bfbc5aec98d8e5443a9072", url: "wss://witness.reclaimprotocol.org/ws" }],
};
const RECLAIM_WITNESS = "0x244897572368eadf65bfbc5aec98d8e5443a9072";

const NOW_MS = Date.UTC(2027, 2, 1, 12, 0, 0);
const policy = { attestors: [ATTESTOR_A.address, ATTESTOR_B.address], minSignatures: 1, maxAgeSeconds: 600, nowMs: NOW_MS };
/** A proof attested 30 s before the test's instant (test/helpers/zktls.ts). */
const signedProof = (signers?: PrivateKeyAccount[], change?: Partial<ReclaimProof["claimData"]>) => signedProofAt(NOW_MS, signers, change);

test("a proof Reclaim published verifies against its real attestor: the identifier and the signed text are Reclaim's", async () => {
  const nowMs = PUBLISHED.claimData.timestampS * 1000 + 60_000;
  const verdict = await verifyReclaimProof(PUBLISHED, { attestors: [RECLAIM_WITNESS], minSignatures: 1, maxAgeSeconds: 600, nowMs });
  expect(verdict).toMatchObject({ ok: true, identifier: PUBLISHED.identifier, owner: PUBLISHED.claimData.owner });
  expect(verdict.ok && verdict.signers.map((s) => s.toLowerCase())).toEqual([RECLAIM_WITNESS]);
  const username = PUBLISHED.claimData.parameters.replace("hadi-saleh14", "someone-else");
  const forged = { ...PUBLISHED, claimData: { ...PUBLISHED.claimData, parameters: username } };
  expect(await verifyReclaimProof(forged, { attestors: [RECLAIM_WITNESS], minSignatures: 1, maxAgeSeconds: 600, nowMs })).toMatchObject({
    ok: false,
    reason: "identifier_mismatch",
  });
});

test("canonical JSON sorts keys at every depth and drops whitespace, as RFC 8785", () => {
  expect(canonicalJson({ b: 1, a: { d: [2, { z: true, y: null }], c: "x" } })).toBe('{"a":{"c":"x","d":[2,{"y":null,"z":true}]},"b":1}');
});

test("a proof signed by a configured attestor passes, whatever the order of its context's keys", async () => {
  const proof = await signedProof();
  expect(await verifyReclaimProof(proof, policy)).toMatchObject({ ok: true, signers: [ATTESTOR_A.address] });
  const { companyId, requestNonce } = JSON.parse(proof.claimData.context);
  const reordered = {
    ...proof,
    // The same context with its keys in another order and whitespace: the identifier hashes its canonical form.
    claimData: { ...proof.claimData, context: JSON.stringify({ requestNonce, companyId }, null, 2) },
  };
  expect(await verifyReclaimProof(reordered, policy)).toMatchObject({ ok: true });
});

describe("refused, with the reason", () => {
  test("tampered parameters, context, provider or identifier", async () => {
    const proof = await signedProof();
    for (const claimData of [
      { ...proof.claimData, parameters: canonicalJson({ method: "GET", url: "https://api.example.com/deliveries/43" }) },
      { ...proof.claimData, context: canonicalJson({ requestNonce: "0x" + "cd".repeat(32), companyId: "acme" }) },
      { ...proof.claimData, provider: "https" },
    ]) {
      expect(await verifyReclaimProof({ ...proof, claimData }, policy)).toMatchObject({ ok: false, reason: "identifier_mismatch" });
    }
    const other = await signedProof([ATTESTOR_A], { parameters: "{}" });
    expect(await verifyReclaimProof({ ...proof, identifier: other.identifier }, policy)).toMatchObject({ ok: false, reason: "identifier_mismatch" });
  });

  test("a changed owner, timestamp or epoch no longer matches its signature's signer", async () => {
    const proof = await signedProof();
    for (const change of [{ owner: "0xabcdef0000000000000000000000000000000002" }, { timestampS: proof.claimData.timestampS + 1 }, { epoch: 2 }]) {
      expect(await verifyReclaimProof({ ...proof, claimData: { ...proof.claimData, ...change } }, policy)).toMatchObject({
        ok: false,
        reason: "unknown_attestor",
      });
    }
  });

  test("an attestor that is not configured", async () => {
    expect(await verifyReclaimProof(await signedProof([STRANGER]), policy)).toMatchObject({ ok: false, reason: "unknown_attestor" });
    expect(await verifyReclaimProof(await signedProof([ATTESTOR_A, STRANGER]), policy)).toMatchObject({ ok: false, reason: "unknown_attestor" });
  });

  test("too few distinct attestors: the same attestor twice counts once", async () => {
    const twoOfTwo = { ...policy, minSignatures: 2 };
    expect(await verifyReclaimProof(await signedProof([ATTESTOR_A, ATTESTOR_B]), twoOfTwo)).toMatchObject({ ok: true });
    expect(await verifyReclaimProof(await signedProof([ATTESTOR_A, ATTESTOR_A]), twoOfTwo)).toMatchObject({
      ok: false,
      reason: "too_few_signatures",
    });
    expect(await verifyReclaimProof(await signedProof([]), policy)).toMatchObject({ ok: false, reason: "too_few_signatures" });
  });

  test("stale or from the future beyond the allowed age", async () => {
    for (const timestampS of [NOW_MS / 1000 - 601, NOW_MS / 1000 + 601]) {
      expect(await verifyReclaimProof(await signedProof([ATTESTOR_A], { timestampS }), policy)).toMatchObject({ ok: false, reason: "stale" });
    }
    expect(await verifyReclaimProof(await signedProof([ATTESTOR_A], { timestampS: NOW_MS / 1000 - 600 }), policy)).toMatchObject({ ok: true });
  });

  test("a signature that is not one", async () => {
    const proof = await signedProof();
    expect(await verifyReclaimProof({ ...proof, signatures: ["0x1234"] }, policy)).toMatchObject({ ok: false, reason: "bad_signature" });
  });
});
