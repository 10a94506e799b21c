/** POST /proofs/zktls and GET /proofs/zktls shapes: a Reclaim-format proof in, the stored record out. */
import { t, type Static } from "elysia";
import { NonBlankText } from "../../http/non-blank-text";
import { PageQuery } from "../../http/pagination";

const EXAMPLE_IDENTIFIER = "0x5f3c1e6e4d5b9a1c2f7e8d9c0b1a2f3e4d5c6b7a8f9e0d1c2b3a4f5e6d7c8b9a";
const EXAMPLE_CLAIM = {
  provider: "http",
  parameters: '{"method":"GET","url":"https://api.example.com/deliveries/42"}',
  owner: "0xabcdef0000000000000000000000000000000001",
  timestampS: 1803988770,
  context: '{"companyId":"acme","requestNonce":"0xabab"}',
  epoch: 1,
};

export const ReclaimProofBody = t.Object(
  {
    identifier: t.String({ pattern: "^0x[0-9a-fA-F]{64}$", description: "The claim identifier (keccak256 of provider, parameters and context)" }),
    claimData: t.Object(
      {
        provider: t.String({
          minLength: 1,
          maxLength: 200,
          description: "The provider the attestors observed (Reclaim's `http`, or a provider name)",
        }),
        parameters: t.String({ maxLength: 65_536, description: "The request the attestors observed, as Reclaim writes it (JSON text)" }),
        owner: t.String({ pattern: "^0x[0-9a-fA-F]{40}$", description: "The EVM address the claim belongs to" }),
        timestampS: t.Integer({ minimum: 0, description: "When the claim was attested, Unix seconds" }),
        context: t.String({ maxLength: 65_536, description: "The prover's context (JSON text; compared in canonical form)" }),
        identifier: t.String({ pattern: "^0x[0-9a-fA-F]{64}$", description: "The same identifier, as signed" }),
        epoch: t.Integer({ minimum: 0, maximum: 2_147_483_647, description: "The attestor set's epoch" }),
      },
      { description: "The claim the attestors signed" },
    ),
    signatures: t.Array(t.String({ pattern: "^0x[0-9a-fA-F]{130}$" }), {
      maxItems: 32,
      description: "EIP-191 signatures over `identifier\\nowner\\ntimestampS\\nepoch`, one per attestor",
    }),
    witnesses: t.Array(t.Object({ id: t.String({ maxLength: 200 }), url: t.Optional(t.String({ maxLength: 2048 })) }), {
      maxItems: 32,
      description: "As Reclaim sends them; ignored (the trusted attestors are the service's configuration)",
    }),
  },
  { description: "A proof in Reclaim's format" },
);

export const ZktlsProofSubmission = t.Object(
  {
    company: t.Optional(
      t.Object(
        { id: NonBlankText("Our comp_ id or your id for the company; it must exist") },
        { description: "The company the proof is about (optional)" },
      ),
    ),
    proof: ReclaimProofBody,
  },
  {
    examples: [
      {
        company: { id: "acme" },
        proof: {
          identifier: EXAMPLE_IDENTIFIER,
          claimData: { ...EXAMPLE_CLAIM, identifier: EXAMPLE_IDENTIFIER },
          signatures: [`0x${"1b".repeat(65)}`],
          witnesses: [],
        },
      },
    ],
  },
);
export type ZktlsProofSubmission = Static<typeof ZktlsProofSubmission>;

export const ZktlsProof = t.Object(
  {
    id: t.String({ description: "zkp_ id" }),
    companyId: t.Union([t.String(), t.Null()], { description: "Our comp_ id of the company named at submission; null when none was" }),
    provider: t.String({ description: "The claim's provider" }),
    identifier: t.String({ description: "The claim identifier (lowercase); unique across the whole service" }),
    owner: t.String({ description: "The claim's owner address (lowercase)" }),
    timestamp: t.String({ format: "date-time", description: "When the claim was attested" }),
    epoch: t.Integer(),
    parameters: t.String(),
    context: t.String(),
    signers: t.Array(t.String(), { description: "The configured attestors that signed" }),
    createdAt: t.String({ format: "date-time" }),
  },
  {
    $id: "ZktlsProof",
    description: "A verified zkTLS proof",
    examples: [
      {
        id: "zkp_3f9a2b7c8d1e4f5a",
        companyId: "comp_8d1e4f5a3f9a2b7c",
        provider: EXAMPLE_CLAIM.provider,
        identifier: EXAMPLE_IDENTIFIER,
        owner: EXAMPLE_CLAIM.owner,
        timestamp: "2027-03-01T11:59:30.000Z",
        epoch: 1,
        parameters: EXAMPLE_CLAIM.parameters,
        context: EXAMPLE_CLAIM.context,
        signers: ["0x244897572368Eadf65bfBc5aec98D8e5443a9072"],
        createdAt: "2027-03-01T12:00:00.000Z",
      },
    ],
  },
);
export type ZktlsProof = Static<typeof ZktlsProof>;

export const ZktlsProofCreated = t.Object({ proof: ZktlsProof });

export const ZktlsProofListQuery = t.Object({
  ...PageQuery,
  companyId: t.Optional(t.String({ minLength: 1, maxLength: 200, description: "Our comp_ id or your id for the company" })),
  providerId: t.Optional(t.String({ minLength: 1, maxLength: 200, description: "The claim's provider" })),
});
