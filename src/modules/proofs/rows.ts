/** Database row types of zktls_proofs. */
export interface ZktlsProofRow {
  id: string;
  company_id: string | null;
  provider: string;
  identifier: string;
  owner: string;
  claimed_at: Date;
  epoch: number;
  parameters: string;
  context: string;
  signers: string[];
  created_at: Date;
  seq: bigint;
}
