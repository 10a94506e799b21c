/**
 * Auto-topup on Solana (src/chains/topup-types.ts). The funding wallet approves the service's operator as SPL
 * delegate of its token account for a total (the consent, and its cap); a top-up is the delegate's transfer to the
 * target's associated token account, sent by the subscription pull flow (pull.ts): read first, refuse what the
 * delegation or the balance cannot cover, and create the reference's marker account in the same transaction, so
 * one reference moves money once however often it is sent, and a lost answer is found again from the chain
 * (landed.ts). Balances: the targets' associated token accounts, one `getMultipleAccounts` per 100 (the RPC's limit).
 */
import { SystemProgram, type PublicKey } from "@solana/web3.js";
import { operatorKey } from "../../lib/operator-keys";
import { refuseOperation, type OperationResult, type SubscriptionRefusal } from "../subscription-types";
import type { TopupAdapter, TopupLanded, TopupSend } from "../topup-types";
import { resolveParties, solanaKey, type Parties } from "./autopay";
import { firstPull } from "./activation";
import { solanaChains } from "./chain";
import { findOperation, operationMemo } from "./landed";
import { canonicalReference, operationKeypair } from "./operator";
import { pull, type PullPlan, type SolanaChain } from "./pull";
import { READ, type Timing } from "./send";
import { associatedTokenAddress, decodeTokenAccount, memo } from "./spl";

/** getMultipleAccounts takes at most 100 keys. */
export const ACCOUNTS_PER_REQUEST = 100;

function topupPlan(chain: SolanaChain, parties: Parties, amount: bigint, reference: string): PullPlan {
  const operator = chain.operator.keypair.publicKey;
  return {
    extra: [],
    check: async () => null,
    creates: [0],
    instructions: async (marker) => [
      ...firstPull(operator, parties, amount),
      SystemProgram.createAccount({
        fromPubkey: operator,
        newAccountPubkey: marker.publicKey,
        lamports: await chain.rent(0),
        space: 0,
        programId: SystemProgram.programId,
      }),
      memo(operationMemo("topup", reference, parties.payee.toBase58())),
    ],
  };
}

const landed = (result: OperationResult): TopupLanded | SubscriptionRefusal =>
  result.ok ? { ok: true, txHash: result.txHash, blockNumber: result.blockNumber } : result;

export function createSolanaTopups(
  timing: Timing = { requestMs: 5_000, settleMs: 16_000, pollMs: 500 },
  key: () => string | undefined = () => operatorKey("solana"),
): TopupAdapter {
  const chainFor = solanaChains(timing, key);

  async function prepare(request: TopupSend): Promise<{ chain: SolanaChain; parties: Parties; reference: string } | SubscriptionRefusal> {
    const chain = await chainFor(request.network.rpcUrl);
    if ("ok" in chain) return chain;
    const parties = resolveParties({ network: request.network, token: request.token, payer: request.funder, payee: request.target });
    if ("ok" in parties) return parties;
    const reference = canonicalReference(request.reference);
    if (!reference) return refuseOperation("reverted", "The reference is not 32 bytes of hex; nothing was sent.");
    return { chain, parties, reference };
  }

  const adapter: TopupAdapter = {
    async balances({ network, token, wallets }) {
      const mint = token.mint ? solanaKey(token.mint) : null;
      if (!mint) return refuseOperation("not_configured", `${token.symbol} is not an SPL token`);
      const chain = await chainFor(network.rpcUrl);
      if ("ok" in chain) return chain;
      const accounts = wallets.map((wallet) => {
        const owner = solanaKey(wallet);
        return owner ? associatedTokenAddress(owner, mint) : null;
      });
      const balances: (bigint | null)[] = new Array(wallets.length).fill(null);
      const readable = accounts.flatMap((account, index) => (account ? [{ account, index }] : []));
      let requests = 0;
      for (let start = 0; start < readable.length; start += ACCOUNTS_PER_REQUEST) {
        const slice = readable.slice(start, start + ACCOUNTS_PER_REQUEST);
        const infos = await chain.connection.getMultipleAccountsInfo(
          slice.map((s) => s.account as PublicKey),
          READ,
        );
        requests++;
        slice.forEach(({ index }, i) => {
          const info = infos[i] ?? null;
          // No token account yet: the wallet holds none of the token (the first top-up creates it).
          balances[index] = info === null ? 0n : (decodeTokenAccount(info)?.amount ?? null);
        });
      }
      return { ok: true, balances, requests, blockNumber: null };
    },

    async readFunding({ network, token, funder }) {
      const chain = await chainFor(network.rpcUrl);
      if ("ok" in chain) return chain;
      const parties = resolveParties({ network, token, payer: funder, payee: funder });
      if ("ok" in parties) return parties;
      const account = decodeTokenAccount(await chain.connection.getAccountInfo(parties.payerAccount, READ));
      const operator = chain.operator.keypair.publicKey;
      const mine = account?.owner.equals(parties.payer) === true;
      const delegated = mine && account.delegate?.equals(operator) === true && !account.frozen;
      return { ok: true, operator: operator.toBase58(), allowance: delegated ? account.delegatedAmount : 0n, balance: mine ? account.amount : 0n };
    },

    async send(request) {
      const ready = await prepare(request);
      if ("ok" in ready) return ready;
      const { chain, parties, reference } = ready;
      return landed(await pull(chain, { amount: request.amount, reference, parties }, topupPlan(chain, parties, request.amount, reference)));
    },

    async lookup(request) {
      const ready = await prepare(request);
      if ("ok" in ready) return ready;
      const { chain, parties, reference } = ready;
      const marker = (await operationKeypair(chain.operator, reference)).publicKey;
      const found = await findOperation(chain.connection, marker, { parties, operator: chain.operator.keypair.publicKey, reference }, chain.timing);
      if (found.kind === "found") return { ok: true, landed: landed(found.operation) as TopupLanded, inFlight: false };
      if (found.kind === "pending") return refuseOperation("timeout", "The top-up is on chain but not final yet; look it up again shortly.");
      // Not on chain: a Solana transaction can land only until its blockhash expires (about a minute), so once the
      // caller waited past that, nothing sent under this reference ever will.
      return { ok: true, landed: null, inFlight: false };
    },
  };

  const unknown = () =>
    refuseOperation("rpc_unavailable", "The Solana RPC endpoint failed or answered something unreadable; look the reference up before retrying.");
  return {
    balances: (r) => adapter.balances(r).catch(unknown),
    readFunding: (r) => adapter.readFunding(r).catch(unknown),
    send: (r) => adapter.send(r).catch(unknown),
    lookup: (r) => adapter.lookup(r).catch(unknown),
  };
}

export const solanaTopups: TopupAdapter = createSolanaTopups();
