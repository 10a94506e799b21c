/**
 * A charge: the delegate's transfer, the creation of the reference's marker account (an empty system
 * account, rent-exempt: 890,880 lamports today) and a memo carrying the reference. Creating the marker
 * needs the reference's key and fails once it exists, so two transactions with one reference can never
 * both succeed, even when both are in flight at once; the marker's only transaction is the charge, which
 * is how lookups find it. The subscription mint must bind these very parties (its freeze authority).
 */
import { SystemProgram, type Keypair, type PublicKey, type TransactionInstruction } from "@solana/web3.js";
import { refuseOperation } from "../subscription-types";
import { firstPull } from "./activation";
import { operationMemo } from "./landed";
import { partiesKey } from "./operator";
import type { Pull, PullPlan, SolanaChain } from "./pull";
import { decodeMint, memo } from "./spl";

export function chargePlan(chain: SolanaChain, { amount, reference, parties }: Pull, subscription: PublicKey): PullPlan {
  return {
    extra: [subscription],
    async check([info]) {
      const mint = decodeMint(info ?? null);
      const bound = await partiesKey(chain.operator, parties.payer, parties.payee, parties.mint);
      const ours = mint !== null && mint.decimals === 0 && mint.supply === 1n && mint.mintAuthority === null && mint.freezeAuthority?.equals(bound);
      if (ours) return null;
      return refuseOperation("autopay_not_installed", "This subscription token was not activated by the service for this payer, payee and token.");
    },
    creates: [0],
    instructions: (marker) => markedPull(chain, { amount, parties }, marker, operationMemo("charge", reference, subscription.toBase58())),
  };
}

/**
 * The delegate's transfer, the creation of the reference's marker account (`creates: [0]` in a plan) and the memo
 * that lets lookups recognize it: a charge's and a top-up's transaction alike.
 */
export async function markedPull(
  chain: SolanaChain,
  { amount, parties }: Pick<Pull, "amount" | "parties">,
  marker: Keypair,
  memoText: string,
): Promise<TransactionInstruction[]> {
  const operator = chain.operator.keypair.publicKey;
  return [
    ...firstPull(operator, parties, amount),
    SystemProgram.createAccount({
      fromPubkey: operator,
      newAccountPubkey: marker.publicKey,
      lamports: await chain.rent(0),
      space: 0,
      programId: SystemProgram.programId,
    }),
    memo(memoText),
  ];
}
