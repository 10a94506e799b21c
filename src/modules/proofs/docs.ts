/** The OpenAPI descriptions of the zkTLS proof routes. */
export const SUBMIT_DESCRIPTION = `Verifies a zkTLS proof in Reclaim's format offline and stores it (docs/proofs.md).

Checked in this order, each refusal a 400 \`{error, details}\` with \`details.reason\`, and nothing stored:
\`no_attestors\` (the service trusts no attestor: ZKTLS_ATTESTORS unset), \`identifier_mismatch\` (the identifier is not
keccak256 of provider, parameters and canonical context), \`stale\` (the claim's timestamp is more than ZKTLS_MAX_AGE_SECONDS
from now), \`bad_signature\`, \`unknown_attestor\` (a signer not configured), \`too_few_signatures\` (fewer distinct configured
attestors than ZKTLS_MIN_SIGNATURES). The \`witnesses\` of the proof are ignored.

\`company.id\` (optional) names a company of yours by our comp_ id or your id; an unknown one is 404. A claim identifier is
accepted once across the whole service: a second submission, by anyone, is 409 \`proof_replayed\`.`;

export const LIST_DESCRIPTION =
  "The environment's verified proofs, newest first. Filters: `companyId` (our comp_ id or your id for the company), `providerId` (the claim's provider).";
