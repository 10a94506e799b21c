/**
 * The funding wallet's side of registering an auto-topup funding mandate (src/modules/agents/consent.ts): the
 * consent text signed as wallets sign it (EVM: viem's EIP-191 `signMessage`; Solana: ed25519 over the text's bytes,
 * test/helpers/payer-consent.ts), and the dashboard request body that carries it.
 */
import type { Keypair } from "@solana/web3.js";
import type { HDAccount } from "viem/accounts";
import { findToken, type ChainRegistry } from "../../src/lib/networks";
import type { Tenant } from "../../src/lib/tenant";
import { fundingConsentMessage } from "../../src/modules/agents/consent";
import { newNonce, solanaSigner } from "./payer-consent";

export interface FundingRequest {
  chains: ChainRegistry;
  tenant: Tenant;
  network: string;
  /** an anvil account (EVM) or a Solana keypair: the funding wallet, which signs */
  wallet: HDAccount | Keypair;
  dailyCap: bigint;
  /** the lifetime total the consent names; default: far above any test's approval */
  total?: bigint;
  token?: string;
  /** default: now at the caller's clock */
  issuedAt: Date;
  /** sign as this wallet instead (a consent that must not verify) */
  signer?: HDAccount | Keypair;
}

const addressOf = (w: HDAccount | Keypair) =>
  "publicKey" in w && typeof w.publicKey !== "string" ? w.publicKey.toBase58() : (w as HDAccount).address;

/** The body of PUT /dashboard/agent-funding/{network}, its consent signed by the funding wallet (or `signer`). */
export async function fundingBody(r: FundingRequest) {
  const network = r.chains.get(r.network)!;
  const token = r.token ? findToken(network, r.token)! : network.tokens.find((t) => !t.native)!;
  const wallet = addressOf(r.wallet);
  const issuedAt = r.issuedAt.toISOString();
  const nonce = newNonce();
  const total = r.total ?? 10n ** 15n;
  const message = fundingConsentMessage({ tenant: r.tenant, network, token, wallet, dailyCap: r.dailyCap, total }, issuedAt, nonce);
  const signer = r.signer ?? r.wallet;
  const signature =
    "signMessage" in signer && !("publicKey" in signer && typeof signer.publicKey !== "string")
      ? await (signer as HDAccount).signMessage({ message })
      : Buffer.from(await solanaSigner(signer as Keypair).signMessage(message)).toString("base64");
  return {
    fundingWallet: wallet,
    dailyCap: String(r.dailyCap),
    total: String(total),
    ...(r.token ? { token: r.token } : {}),
    consent: { issuedAt, nonce, signature },
  };
}
