/**
 * Auto-topup on Solana (src/chains/topup-types.ts). The funding wallet approves the service's operator as SPL
 * delegate of its token account for a total (the consent, and its cap); a top-up is the delegate's transfer to the
 * target's associated token account, sent by the subscription pull flow (pull.ts): read first, refuse what the
 * delegation or the balance cannot cover, and create the reference's marker account in the same transaction, so
 * one reference moves money once however often it is sent, and a lost answer is found again from the chain
 * (landed.ts). Balances: the targets' associated token accounts, one `getMultipleAccounts` per 100 (the RPC's limit).
 */
import type { PublicKey } from "@solana/web3.js";
import { operatorKey } from "../../lib/operator-keys";
import { refuseOperation, type OperationResult, type SubscriptionRefusal } from "../subscription-types";
import type { TopupAdapter, TopupLanded, TopupSend } from "../topup-types";
import { resolveParties, solanaKey, type Parties } from "./autopay";
import { markedPull } from "./charge";
import { solanaChains } from "./chain";
import { findOperation, operationMemo } from "./landed";
import { canonicalReference, operationKeypair } from "./operator";
import { pull, type PullPlan, type SolanaChain } from "./pull";
import { READ, type Timing } from "./send";
import { associatedTokenAddress, decodeTokenAccount } from "./spl";

/** getMultipleAccounts takes at most 100 keys. */
export const ACCOUNTS_PER_REQUEST = 100;

function topupPlan(chain: SolanaChain, parties: Parties, amount: bigint, reference: string): PullPlan {
  return {
    extra: [],
    check: async () => null,
    creates: [0],
    instructions: (marker) => markedPull(chain, { amount, parties }, marker, operationMemo("topup", reference, parties.payee.toBase58())),
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

    // Nothing is signed ahead on Solana (the transaction is built at the send, after its reads): what is fixed and
    // recorded first is the blockhash it will carry, whose expiry says when it can no longer land.
    async sign(request) {
      const ready = await prepare(request);
      if ("ok" in ready) return ready;
      const { blockhash, lastValidBlockHeight } = await ready.chain.connection.getLatestBlockhash(READ);
      return { ok: true, txHash: null, nonce: null, lastValidBlockHeight, envelope: blockhash };
    },

    async send(request) {
      const ready = await prepare(request);
      if ("ok" in ready) return ready;
      const { chain, parties, reference } = ready;
      const signed = request.signed;
      if (!signed?.envelope || signed.lastValidBlockHeight === null)
        return refuseOperation("reverted", "A top-up is sent only with a blockhash recorded first; nothing was sent.");
      const recent = { blockhash: signed.envelope, lastValidBlockHeight: signed.lastValidBlockHeight };
      return landed(await pull(chain, { amount: request.amount, reference, parties, recent }, topupPlan(chain, parties, request.amount, reference)));
    },

    async lookup(request) {
      const ready = await prepare(request);
      if ("ok" in ready) return ready;
      const { chain, parties, reference } = ready;
      // Read first: a transaction not landed by this height (past its blockhash's life) never will.
      const height = await chain.connection.getBlockHeight(READ);
      const marker = (await operationKeypair(chain.operator, reference)).publicKey;
      const found = await findOperation(chain.connection, marker, { parties, operator: chain.operator.keypair.publicKey, reference }, chain.timing);
      if (found.kind === "found") return { ok: true, landed: landed(found.operation) as TopupLanded, inFlight: false };
      if (found.kind === "pending") return refuseOperation("timeout", "The top-up is on chain but not final yet; look it up again shortly.");
      // Never given a blockhash: never sent. Otherwise it may land until the chain passes its last valid height.
      const validUntil = request.signed?.lastValidBlockHeight ?? null;
      return { ok: true, landed: null, inFlight: validUntil !== null && height <= validUntil };
    },

    release: async () => ({ ok: true }),
  };

  const unknown = () =>
    refuseOperation("rpc_unavailable", "The Solana RPC endpoint failed or answered something unreadable; look the reference up before retrying.");
  return {
    balances: (r) => adapter.balances(r).catch(unknown),
    readFunding: (r) => adapter.readFunding(r).catch(unknown),
    sign: (r) => adapter.sign(r).catch(unknown),
    send: (r) => adapter.send(r).catch(unknown),
    lookup: (r) => adapter.lookup(r).catch(unknown),
    release: adapter.release,
  };
}

export const solanaTopups: TopupAdapter = createSolanaTopups();
