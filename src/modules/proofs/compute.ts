/**
 * Offline verification of a zkTLS proof in the Reclaim format, before anything about it is stored: the claim's
 * identifier is recomputed from what it claims (so no field can be swapped under a valid signature), each witness
 * signature is recovered and must come from an attestor this deployment pins, enough distinct attestors must have
 * signed, and the claim must be fresh. Pure: the clock and the pinned attestors are inputs.
 *
 * Reclaim's rules (attestor-core, `getIdentifierFromClaimInfo` and `createSignDataForClaim`):
 * - identifier = keccak-256 of `provider + "\n" + parameters + "\n" + context`, the context re-serialised as
 *   canonical JSON (RFC 8785: keys sorted, no whitespace) when it is JSON;
 * - each witness signs, EIP-191 (`personal_sign`), the lines `identifier`, the owner lowercased, `timestampS`, `epoch`.
 */
import { getAddress, isAddress, keccak256, recoverMessageAddress, stringToBytes, type Hex } from "viem";
import { REQUEST_NONCE_PATTERN } from "../escrow/compute";

export interface ReclaimClaimData {
  provider: string;
  parameters: string;
  owner: string;
  timestampS: number;
  context: string;
  identifier: string;
  epoch: number;
}

export interface ReclaimProof {
  identifier: string;
  claimData: ReclaimClaimData;
  signatures: string[];
  witnesses: { id: string; url?: string }[];
}

export interface AttestorPolicy {
  /** the attestor addresses this deployment trusts (configuration) */
  attestors: readonly string[];
  /** how many distinct pinned attestors must have signed */
  minSignatures: number;
  /** how old (or how far ahead) a claim's timestamp may be, in seconds */
  maxAgeSeconds: number;
  /** the instant of verification, ms since the epoch */
  nowMs: number;
}

export type ProofVerdict = { ok: true; identifier: Hex; owner: string; signers: string[] } | { ok: false; reason: ProofRefusal; detail: string };

export type ProofRefusal = "identifier_mismatch" | "stale" | "unknown_attestor" | "too_few_signatures" | "bad_signature";

/** RFC 8785 canonical JSON of a parsed JSON value (JSON.stringify already writes numbers and strings canonically). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/** The context as Reclaim hashes it: canonical JSON when it parses as JSON, else as given. */
function canonicalContext(context: string): string {
  if (!context) return context;
  try {
    return canonicalJson(JSON.parse(context));
  } catch {
    return context;
  }
}

/** The claim's identifier, recomputed from what it claims. */
export const claimIdentifier = (c: Pick<ReclaimClaimData, "provider" | "parameters" | "context">): Hex =>
  keccak256(stringToBytes(`${c.provider}\n${c.parameters}\n${canonicalContext(c.context)}`));

/** The text each witness signs. */
export const signedText = (c: Pick<ReclaimClaimData, "owner" | "timestampS" | "epoch">, identifier: Hex) =>
  [identifier, c.owner.toLowerCase(), String(c.timestampS), String(c.epoch)].join("\n");

export async function verifyReclaimProof(proof: ReclaimProof, policy: AttestorPolicy): Promise<ProofVerdict> {
  const c = proof.claimData;
  const identifier = claimIdentifier(c);
  if (proof.identifier.toLowerCase() !== identifier || c.identifier.toLowerCase() !== identifier) {
    return { ok: false, reason: "identifier_mismatch", detail: "The identifier is not the hash of the claim's provider, parameters and context" };
  }
  const ageSeconds = Math.abs(policy.nowMs / 1000 - c.timestampS);
  if (ageSeconds > policy.maxAgeSeconds) {
    return {
      ok: false,
      reason: "stale",
      detail: `The claim was made ${Math.round(ageSeconds)} s from now; at most ${policy.maxAgeSeconds} s is accepted`,
    };
  }
  const pinned = new Set<string>(policy.attestors.filter((a) => isAddress(a)).map((a) => getAddress(a)));
  const text = signedText(c, identifier);
  const signers = new Set<string>();
  for (const signature of proof.signatures) {
    let signer: string;
    try {
      signer = await recoverMessageAddress({ message: text, signature: signature as Hex });
    } catch {
      return { ok: false, reason: "bad_signature", detail: "A signature is not a valid secp256k1 signature" };
    }
    if (!pinned.has(signer)) return { ok: false, reason: "unknown_attestor", detail: `Signed by ${signer}, not a configured attestor` };
    signers.add(signer);
  }
  if (signers.size < policy.minSignatures) {
    return { ok: false, reason: "too_few_signatures", detail: `${signers.size} configured attestor(s) signed; ${policy.minSignatures} required` };
  }
  return { ok: true, identifier, owner: c.owner.toLowerCase(), signers: [...signers] };
}

/**
 * The escrow request nonce a claim names: the `requestNonce` string of its context (JSON), spelled as the escrow takes
 * nonces; null when it names none.
 */
export function nonceOfContext(context: string): string | null {
  try {
    const parsed = JSON.parse(context) as unknown;
    const nonce = parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>).requestNonce : undefined;
    return typeof nonce === "string" && new RegExp(REQUEST_NONCE_PATTERN).test(nonce) ? nonce : null;
  } catch {
    return null;
  }
}
