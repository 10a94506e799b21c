/**
 * Activation, one transaction signed by the operator (fee payer and delegate) and the subscription mint's
 * key: the first pull (none for a trial), then a new 0-decimal mint with the operator as mint authority,
 * the payer's token account for it, one token minted to it, and the mint authority removed so the supply
 * stays 1 forever. The mint's address is the reference's key (operator.ts), which makes a second
 * activation with the same reference impossible on chain; its freeze authority records the parties.
 */
import { SystemProgram, type PublicKey } from "@solana/web3.js";
import type { Parties } from "./autopay";
import { operationMemo } from "./landed";
import { partiesKey } from "./operator";
import type { Pull, PullPlan, SolanaChain } from "./pull";
import {
  associatedTokenAddress,
  createAssociatedTokenAccountIdempotent,
  initializeMint2,
  memo,
  MINT_SIZE,
  mintTo,
  removeMintAuthority,
  TOKEN_ACCOUNT_SIZE,
  TOKEN_PROGRAM,
  transferChecked,
} from "./spl";

export function activationPlan(chain: SolanaChain, { amount, reference, parties }: Pull): PullPlan {
  const operator = chain.operator.keypair.publicKey;
  return {
    extra: [],
    check: async () => null,
    creates: [MINT_SIZE, TOKEN_ACCOUNT_SIZE],
    async instructions(subscription) {
      const mint = subscription.publicKey;
      const bound = await partiesKey(chain.operator, parties.payer, parties.payee, parties.mint);
      return [
        ...firstPull(operator, parties, amount),
        SystemProgram.createAccount({
          fromPubkey: operator,
          newAccountPubkey: mint,
          lamports: await chain.rent(MINT_SIZE),
          space: MINT_SIZE,
          programId: TOKEN_PROGRAM,
        }),
        initializeMint2(mint, 0, operator, bound),
        createAssociatedTokenAccountIdempotent(operator, parties.payer, mint),
        mintTo(mint, associatedTokenAddress(parties.payer, mint), operator, 1n),
        removeMintAuthority(mint, operator),
        memo(operationMemo("activate", reference, mint.toBase58())),
      ];
    },
  };
}

/**
 * The delegate's transfer from the payer's associated token account to the payee's, which is created first
 * when the team's wallet has none yet (the operator pays its rent; it does nothing when it exists).
 */
export function firstPull(operator: PublicKey, parties: Parties, amount: bigint) {
  if (amount === 0n) return [];
  return [
    createAssociatedTokenAccountIdempotent(operator, parties.payee, parties.mint),
    transferChecked({
      source: parties.payerAccount,
      mint: parties.mint,
      destination: parties.payeeAccount,
      authority: operator,
      amount,
      decimals: parties.decimals,
    }),
  ];
}
