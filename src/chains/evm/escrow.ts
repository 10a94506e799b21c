/**
 * The EVM escrow adapter over our contract (contracts/Escrow.sol, artifact in escrow-contract.ts). Every request names
 * the contract (a reservation's own, never looked up in the registry here: a network's contract may be replaced while
 * reservations of the old one are still held); sends need the EVM operator key too (SUBSCRIPTION_EVM_OPERATOR_KEY: one
 * operator key per family, one nonce counter in the chain worker that holds it).
 */
import { getAddress, isAddress, type Hex } from "viem";
import { refuseEscrow, type EscrowAdapter, type EscrowRefusal, type EscrowRequest } from "../escrow-types";
import { clientFor } from "./client";
import { escrowConsentTypedData, escrowKey } from "./escrow-consent";
import { readReservation, transitionTx } from "./escrow-reads";
import { sendEscrow, type EscrowReady } from "./escrow-send";
import { operatorAccount } from "./operator";
import { guarded } from "./rpc-guard";

type Prepared = Omit<EscrowReady, "operator"> & Partial<Pick<EscrowReady, "operator">>;

const BEFORE_RETRY = "read the reservation before retrying";

function prepare(r: EscrowRequest, needsOperator: boolean): Prepared | EscrowRefusal {
  const { network } = r;
  if (network.chainId === null || !isAddress(r.contract, { strict: false }) || !isAddress(r.payee, { strict: false }))
    return refuseEscrow("not_configured", `No escrow contract is configured for ${network.id}`);
  const operator = needsOperator ? operatorAccount() : undefined;
  if (needsOperator && !operator) return refuseEscrow("not_configured", "No operator key is configured for EVM networks");
  return {
    client: clientFor(network),
    rpcUrl: network.rpcUrl,
    chainId: network.chainId,
    contract: getAddress(r.contract),
    operator: operator ?? undefined,
  };
}

export const evmEscrow: EscrowAdapter = {
  async read(r) {
    const ready = prepare(r, false);
    if ("ok" in ready) return ready;
    const key = escrowKey(r.payee, r.requestNonce);
    return guarded(r.network, BEFORE_RETRY, async (client) => {
      const [reservation, block] = await Promise.all([readReservation(client, ready.contract, key), client.getBlock()]);
      const txHash = await transitionTx(client, ready.contract, key, reservation);
      return { ok: true as const, reservation, txHash, chainNow: Number(block.timestamp) };
    });
  },

  async verifyConsent(r) {
    const ready = prepare(r, false);
    if ("ok" in ready) return ready;
    return guarded(r.network, BEFORE_RETRY, async (client) => {
      // viem asks the payer's account itself when it has code (ERC-1271, and ERC-6492 for one not deployed yet).
      const typed = escrowConsentTypedData({ chainId: ready.chainId, contract: ready.contract }, r.consent);
      const valid = await client.verifyTypedData({ address: getAddress(r.consent.payer), ...typed, signature: r.signature as Hex });
      return { ok: true as const, valid };
    });
  },

  async send(r) {
    const ready = prepare(r, true);
    if ("ok" in ready) return ready;
    const { network, contract: _c, payee, requestNonce, ...action } = r;
    return guarded(network, BEFORE_RETRY, () => sendEscrow(ready as EscrowReady, escrowKey(payee, requestNonce), action));
  },
};
