/** zkTLS test attestors and proofs signed by them (Reclaim's format, as src/modules/proofs/compute.ts verifies it). */
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { canonicalJson, claimIdentifier, signedText, type ReclaimProof } from "../../src/modules/proofs/compute";

export const ATTESTOR_A = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
export const ATTESTOR_B = privateKeyToAccount("0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a");
export const STRANGER = privateKeyToAccount("0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6");

/** ZKTLS_ATTESTORS for a test app trusting A and B. */
export const TEST_ATTESTORS = `${ATTESTOR_A.address},${ATTESTOR_B.address}`;

/** A proof attested 30 s before `nowMs`, unique (a random nonce in its context) unless `change` fixes the context. */
export async function signedProof(
  nowMs: number,
  signers: PrivateKeyAccount[] = [ATTESTOR_A],
  change: Partial<ReclaimProof["claimData"]> = {},
): Promise<ReclaimProof> {
  const nonce = `0x${[...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
  const base = {
    provider: "http",
    parameters: canonicalJson({ method: "GET", url: "https://api.example.com/deliveries/42" }),
    owner: "0xAbCdEf0000000000000000000000000000000001",
    timestampS: Math.floor(nowMs / 1000) - 30,
    context: canonicalJson({ requestNonce: nonce, companyId: "acme" }),
    epoch: 1,
    ...change,
  };
  const identifier = claimIdentifier(base);
  const text = signedText(base, identifier);
  const signatures = await Promise.all(signers.map((s) => s.signMessage({ message: text })));
  return { identifier, claimData: { ...base, identifier }, signatures, witnesses: signers.map((s) => ({ id: s.address })) };
}
