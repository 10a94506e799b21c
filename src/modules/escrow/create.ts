/**
 * Creating a reservation from the payer's signed consent (docs/escrow.md#creating-a-reservation). Everything is checked
 * before anything is written, cheap checks first: the network has an escrow contract and is one the tenant's
 * environment settles on (test networks for development), the token is one of its ERC-20s, the team has a
 * settlement wallet there (the payee the consent must name), the consent's deadline and window are ahead, the company exists, and
 * the signature is the payer's (an EOA's recovered here, a smart account's asked through the chain). Then the pending row
 * takes the payee's nonce (a second request for it is refused while the first's reserve is in flight: only the row's
 * inserter sends it, or a retry that took over a reserve whose answer was lost), the contract reserves (pulling the amount from the payer into
 * escrow) and the row becomes authorized with its transaction and the escrow.authorized webhook.
 */
import { getAddress, recoverTypedDataAddress, type Hex } from "viem";
import { deliveryProviderHash, escrowConsentTypedData, type EscrowConsent } from "../../chains/evm/escrow-consent";
import { apiError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { networkAllowedIn } from "../../lib/networks";
import type { Tenant } from "../../lib/tenant";
import { findSettlementWallet } from "../invoices/repo";
import { escrowChainError } from "./chain-errors";
import type { EscrowStep } from "./context";
import { CALL_STALE_AFTER_MS } from "./compute";
import { findCompanyId, findReservationByNonce, insertReservation, takeOverReserve } from "./repo";
import type { EscrowReservationRow } from "./rows";
import type { ReservationCreate } from "./schemas";
import { sendAndRecord } from "./transition";

const refuse = (reason: string, field: string, message: string) => apiError("escrow_consent_refused", message, { reason, [field]: message });
const notConfigured = (reason: string, message: string) => apiError("escrow_not_configured", message, { reason, "body.network": message });

/** The consent the body describes, with the payee and token the service resolved. */
async function consentOf(step: EscrowStep, tenant: Tenant, body: ReservationCreate) {
  const network = step.deps.chains.get(body.network);
  if (!network || network.family !== "evm" || network.chainId === null)
    throw notConfigured("unknown_network", `${body.network} is not an EVM network of the registry`);
  if (!networkAllowedIn(network, tenant.environment))
    throw apiError("validation_failed", "Validation failed", {
      "body.network":
        tenant.environment === "development" ? "Test credentials settle only on test networks" : "Live credentials settle only on main networks",
    });
  if (!network.escrowContract) throw notConfigured("no_escrow_contract", `No escrow contract is configured for ${network.id}`);
  const token = network.tokens.find((t) => t.symbol === body.token && t.contract);
  if (!token?.contract) throw refuse("unknown_token", "body.token", `${body.token} is not an ERC-20 token of ${network.id}`);
  const wallet = await findSettlementWallet(step.deps.sql, tenant, network.id);
  if (!wallet) throw notConfigured("no_settlement_wallet", `The team has no settlement wallet on ${network.id}: the payee a consent names`);
  const nowS = Math.floor(step.now.getTime() / 1000);
  if (body.deadline < nowS) throw refuse("consent_expired", "body.deadline", `The consent's deadline ${body.deadline} has passed (now ${nowS})`);
  if (body.windowEnd <= nowS)
    throw refuse("window_invalid", "body.windowEnd", `The challenge window would already be over at ${body.windowEnd} (now ${nowS})`);
  const consent: EscrowConsent = {
    payer: getAddress(body.payer),
    payee: getAddress(wallet.wallet),
    token: getAddress(token.contract),
    amount: BigInt(body.amount),
    requestNonce: body.requestNonce,
    windowEnd: body.windowEnd,
    deadline: body.deadline,
    deliveryProvider: deliveryProviderHash(body.deliveryProvider ?? null),
  };
  return { network, token, consent, contract: network.escrowContract.toLowerCase() };
}

/** The typed data as the payer must sign it, for the refusal that asks for it. */
const show = (typed: ReturnType<typeof escrowConsentTypedData>) =>
  JSON.stringify(typed, (_key, value) => (typeof value === "bigint" ? value.toString() : value));

export async function createReservation(step: EscrowStep, tenant: Tenant, body: ReservationCreate): Promise<EscrowReservationRow> {
  const { network, token, consent, contract } = await consentOf(step, tenant, body);
  let companyId: string | null = null;
  if (body.company) {
    companyId = await findCompanyId(step.deps.sql, tenant, body.company.id);
    if (!companyId) throw apiError("not_found", `No company ${body.company.id}`);
  }
  const typed = escrowConsentTypedData({ chainId: network.chainId!, contract }, consent);
  const signer = await recoverTypedDataAddress({ ...typed, signature: body.signature as Hex }).catch(() => null);
  if (signer !== consent.payer) {
    // Not the payer's own key: a smart account answers for itself (ERC-1271), through the chain.
    const checked = await step.deps.pool.escrow({
      op: "verifyConsent",
      request: { network, contract, payee: consent.payee, requestNonce: body.requestNonce, consent, signature: body.signature },
    });
    if (!checked.ok) throw escrowChainError(checked);
    if (!checked.valid) throw refuse("bad_signature", "body.signature", `Expected ${consent.payer}'s EIP-712 signature of ${show(typed)}`);
  }
  const row = await insertReservation(step.deps.sql, {
    id: newId("esc"),
    team_id: tenant.teamId,
    environment: tenant.environment,
    company_id: companyId,
    network: network.id,
    contract,
    request_nonce: body.requestNonce,
    payer: consent.payer.toLowerCase(),
    payee: consent.payee.toLowerCase(),
    token: consent.token.toLowerCase(),
    token_symbol: token.symbol,
    amount: consent.amount.toString(),
    window_ends_at: new Date(body.windowEnd * 1000).toISOString(),
    consent_deadline: new Date(body.deadline * 1000).toISOString(),
    delivery_provider: body.deliveryProvider ?? null,
    consent_signature: body.signature,
    created_at: step.now.toISOString(),
  });
  const claimed = row ?? (await resumable(step, tenant, { network: network.id, contract, payee: consent.payee.toLowerCase() }, body));
  return sendAndRecord(step, claimed, { action: "reserve", consent, signature: body.signature });
}

/**
 * The payee's nonce is taken (only this team holds the payee, its settlement wallet). The same tenant's own reservation
 * of the same consent, still pending with its reserve sent before the stale mark (its answer was lost), is taken over
 * and sent again (the chain is read first, so it never reserves twice): one retry takes it, never a twin, nor the
 * reconcile job meanwhile. A younger pending one is a twin's reserve in flight, which this request must not send again
 * (docs/escrow.md#consistency); it, and anything else, is refused as a used nonce: no other tenant's nonces share this
 * namespace, so the answer tells nothing of theirs.
 */
async function resumable(step: EscrowStep, tenant: Tenant, at: { network: string; contract: string; payee: string }, body: ReservationCreate) {
  const existing = await findReservationByNonce(step.deps.sql, at, body.requestNonce);
  const same =
    existing &&
    existing.team_id === tenant.teamId &&
    existing.environment === tenant.environment &&
    existing.status === "pending" &&
    existing.consent_signature === body.signature;
  const taken = same ? await takeOverReserve(step.deps.sql, existing, new Date(step.now.getTime() - CALL_STALE_AFTER_MS), step.now) : null;
  if (taken) return taken;
  throw apiError("escrow_nonce_used", "The request nonce already holds a reservation", {
    reason: "nonce_used",
    "body.requestNonce": `${body.requestNonce} already holds a reservation for your settlement wallet on ${at.network}'s escrow contract; a consent is used once`,
  });
}
