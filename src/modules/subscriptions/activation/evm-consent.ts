/**
 * The payer's consent to one subscription on an EVM network: EIP-712 typed data (src/chains/evm/consent.ts) naming
 * the payer, the team's settlement wallet (payee), the token, what may be pulled per period and in total, the window
 * length, the end, the company paid for and a salt. The service fills in what it resolved (payer, payee, token,
 * company, chain and contract) and takes the rest from `payerConsent`, so a signature given for another payee,
 * token, company or contract does not verify. Checked before anything is written: an EOA's signature here, a smart
 * account's (ERC-1271) by asking the account through the chain worker. The contract checks it again in `subscribe`
 * and spends its salt there; this service spends it first in its own table (payer_consents).
 */
import { recoverTypedDataAddress, type Hex } from "viem";
import { consentTypedData, type ConsentParties } from "../../../chains/evm/consent";
import type { EvmConsent } from "../../../chains/subscription-types";
import type { NetworkConfig, TokenConfig } from "../../../chains/types";
import { apiError } from "../../../lib/errors";
import type { ChainPool } from "../../../chains/pool";
import { chainError } from "../chain-errors";
import type { PayerConsent } from "./payer-consent";

export interface EvmConsentContext {
  network: NetworkConfig;
  token: TokenConfig;
  payer: string;
  payee: string;
  company: string;
  /** the plan's on-chain window (windows.ts): a consent's period may not be longer */
  maxPeriodSeconds: number;
}

export interface VerifiedEvmConsent {
  consent: EvmConsent;
  /** the salt is spent on chain already (used or cancelled): only a resumed activation may go on */
  usedOnChain: boolean;
}

const invalid = (field: string, message: string) => apiError("validation_failed", "Validation failed", { [`body.payerConsent${field}`]: message });
const UINT = /^[1-9][0-9]{0,77}$/;
const UINT256_MAX = 2n ** 256n - 1n;
const UINT64_MAX = 2 ** 64 - 1;

/** The typed data as the integrator signs it, in the error that asks for it. */
const show = (parties: ConsentParties, c: EvmConsent) =>
  JSON.stringify(consentTypedData(parties, c), (_key, value) => (typeof value === "bigint" ? value.toString() : value));

function parse(body: PayerConsent, ctx: EvmConsentContext, now: Date): EvmConsent {
  const amount = (name: "periodAllowance" | "cap") => {
    const text = body[name];
    if (text === undefined || !UINT.test(text) || BigInt(text) > UINT256_MAX)
      throw invalid(`.${name}`, "Expected a positive integer string of token units, as signed (uint256)");
    return BigInt(text);
  };
  if (body.salt === undefined || !/^0x[0-9a-fA-F]{64}$/.test(body.salt)) throw invalid(".salt", "Expected 0x and 64 hex digits, as signed (bytes32)");
  const periodAllowance = amount("periodAllowance");
  const cap = amount("cap");
  const period = body.periodSeconds;
  if (period === undefined || !Number.isSafeInteger(period) || period < 1 || period > ctx.maxPeriodSeconds)
    throw invalid(
      ".periodSeconds",
      `Expected whole seconds from 1 to ${ctx.maxPeriodSeconds}: a window longer than this plan's shortest period would refuse its renewals`,
    );
  const end = body.end;
  if (end === undefined || !Number.isSafeInteger(end) || end > UINT64_MAX) throw invalid(".end", "Expected unix seconds, as signed (uint64)");
  if (end * 1000 <= now.getTime()) throw invalid(".end", `The consent ended at ${new Date(end * 1000).toISOString()}; sign a new one`);
  if (!/^0x([0-9a-fA-F]{2})+$/.test(body.signature)) throw invalid(".signature", "Expected 0x and the signature's hex bytes");
  return { periodAllowance, cap, periodSeconds: period, end, company: ctx.company, salt: body.salt.toLowerCase(), signature: body.signature };
}

export async function verifyEvmConsent(pool: ChainPool, ctx: EvmConsentContext, body: PayerConsent | null, now: Date): Promise<VerifiedEvmConsent> {
  const { network, token } = ctx;
  if (!network.subscriptionContract || network.chainId === null || !token.contract)
    throw apiError("subscriptions_not_configured", `No subscription contract is configured for ${network.id}`);
  const parties: ConsentParties = {
    chainId: network.chainId,
    contract: network.subscriptionContract,
    payer: ctx.payer,
    payee: ctx.payee,
    token: token.contract,
  };
  if (!body)
    throw invalid(
      "",
      `Required: the payer's EIP-712 signature of its consent to this subscription, {salt, periodAllowance, periodSeconds, cap, end, signature}, over ${show(parties, { periodAllowance: 0n, cap: 0n, periodSeconds: ctx.maxPeriodSeconds, end: 0, company: ctx.company, salt: "<salt>", signature: "" })}`,
    );
  const consent = parse(body, ctx, now);
  const typed = consentTypedData(parties, consent);
  const signer = await recoverTypedDataAddress({ ...typed, signature: consent.signature as Hex }).catch(() => null);
  if (signer?.toLowerCase() === ctx.payer.toLowerCase()) return { consent, usedOnChain: false };
  // Not the payer's own key: a smart account answers for itself (ERC-1271), through the chain.
  const checked = await pool.subscription({ op: "verifyConsent", request: { network, token, payer: ctx.payer, payee: ctx.payee, consent } });
  if (!checked.ok) throw chainError(checked);
  if (!checked.valid)
    throw invalid(".signature", `Expected ${ctx.payer}'s EIP-712 signature (ERC-1271 for a smart account) of ${show(parties, consent)}`);
  return { consent, usedOnChain: checked.used };
}
