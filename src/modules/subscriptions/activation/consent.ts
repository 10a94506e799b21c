/**
 * The payer's consent an activation needs, per family, verified before anything is written: it names the company
 * the activation is for (company-key.ts), the team's payee and the plan's terms, and carries the one-time value the
 * activation spends (the EVM salt, the Solana and Stellar nonce).
 */
import type { EvmConsent } from "../../../chains/subscription-types";
import type { Tenant } from "../../../lib/tenant";
import type { CompanyRef } from "../../customers/schemas";
import { consentCompanyKey } from "./company-key";
import { assertPayerConsent, type PayerConsent } from "./payer-consent";
import { verifyEvmConsent } from "./evm-consent";
import type { SubscriptionDeps } from "../context";
import type { ActivationTerms } from "./terms";
import { windowSeconds } from "./windows";

export interface ActivationConsent {
  /** the company's key the consent names; the reservation checks the company it upserts has it */
  company: string;
  /** payer_consents' key: the payer as the chain spells it (EVM in lowercase) and the consent's one-time value */
  payer: string;
  nonce: string;
  /** EVM: the consent the contract checks and spends; null elsewhere */
  evm: EvmConsent | null;
  /** EVM: its salt is spent on chain already (only a resumed activation may go on) */
  usedOnChain: boolean;
}

export async function verifyActivationConsent(
  deps: SubscriptionDeps,
  tenant: Tenant,
  {
    request,
    terms,
    now,
  }: {
    request: { planId: string; paymentAccount: string; company: CompanyRef; payerConsent: PayerConsent | null };
    terms: ActivationTerms;
    now: Date;
  },
): Promise<ActivationConsent> {
  const company = await consentCompanyKey(deps.sql, tenant, request.company);
  const payer = request.paymentAccount;
  if (terms.network.family === "evm") {
    const ctx = {
      network: terms.network,
      token: terms.token,
      payer,
      payee: terms.payee,
      company,
      maxPeriodSeconds: windowSeconds(terms.billingPeriod),
    };
    const { consent, usedOnChain } = await verifyEvmConsent(deps.pool, ctx, request.payerConsent, now);
    return { company, payer: payer.toLowerCase(), nonce: consent.salt, evm: consent, usedOnChain };
  }
  const nonce = await assertPayerConsent(
    {
      family: terms.network.family,
      payer,
      payee: terms.payee,
      networkId: terms.network.id,
      tokenSymbol: terms.token.symbol,
      onchainPlanId: request.planId,
      price: terms.price,
      currency: terms.currency,
      billingPeriod: terms.billingPeriod,
      company,
    },
    request.payerConsent,
    now,
  );
  return { company, payer, nonce, evm: null, usedOnChain: false };
}
