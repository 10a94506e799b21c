/**
 * Everything one subscription operation needs, resolved once: the Soroban RPC client for the network, the
 * operator's keypair (SUBSCRIPTION_STELLAR_OPERATOR_SECRET, read inside the worker only), the token's Stellar
 * Asset Contract id, and the parties. A network or token this cannot be built for is `not_configured`.
 */
import { type Asset, Keypair, rpc, StrKey } from "@stellar/stellar-sdk";
import { operatorKey } from "../../lib/operator-keys";
import type { AutopayParties } from "../subscription-types";
import { refuse } from "./refusal";
import { sacContractId, tokenAsset } from "./sac";

export interface StellarTiming {
  /** a sent transaction's time bound: past it no ledger may include it, so its fate is settled */
  validitySeconds: number;
  /** getTransaction polling after a send */
  pollIntervalMs: number;
  /** how long one operation polls before answering `timeout` (keep it under the pool's job timeout) */
  pollBudgetMs: number;
  /** per JSON-RPC request */
  requestTimeoutMs: number;
  /** builds of one pull when another transaction of the operator took the sequence number first */
  sendAttempts: number;
}

export const DEFAULT_TIMING: StellarTiming = {
  validitySeconds: 20,
  pollIntervalMs: 1_000,
  pollBudgetMs: 15_000,
  requestTimeoutMs: 8_000,
  sendAttempts: 3,
};

export interface StellarContext {
  server: rpc.Server;
  passphrase: string;
  operator: Keypair;
  asset: Asset;
  contractId: string;
  payer: string;
  payee: string;
  timing: StellarTiming;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
const servers = new Map<string, rpc.Server>();

/** One client per endpoint. Plain http only on loopback (a local RPC); anywhere else it must be https. */
function serverFor(url: string, timing: StellarTiming): rpc.Server {
  let server = servers.get(url);
  if (!server) {
    const parsed = new URL(url);
    if (parsed.protocol !== "https:" && !LOOPBACK.has(parsed.hostname)) refuse("not_configured", "The network's Soroban RPC must use https");
    server = new rpc.Server(url, { allowHttp: parsed.protocol === "http:" });
    // The SDK's fetch client honours a default timeout; the constructor does not pass one through.
    (server.httpClient.defaults as { timeout?: number }).timeout = timing.requestTimeoutMs;
    servers.set(url, server);
  }
  return server;
}

/** Throws `not_configured` (as a Refused) when the deployment or registry lacks what Stellar pulls need. */
export function resolveContext(parties: AutopayParties, timing: StellarTiming): StellarContext {
  const { network, token, payer, payee } = parties;
  const secret = operatorKey("stellar");
  if (!secret || !StrKey.isValidEd25519SecretSeed(secret)) refuse("not_configured", "No Stellar operator key is configured for subscriptions");
  if (!network.sorobanRpcUrl) refuse("not_configured", `The network ${network.id} has no Soroban RPC configured`);
  if (!network.networkPassphrase) refuse("not_configured", `The network ${network.id} has no passphrase configured`);
  const asset = tokenAsset(token);
  if (!asset) refuse("not_configured", `The token ${token.symbol} has no Stellar asset configured`);
  if (!StrKey.isValidEd25519PublicKey(payee)) refuse("not_configured", "The payee is not a Stellar account");
  if (!StrKey.isValidEd25519PublicKey(payer)) refuse("autopay_not_installed", "The payment account is not a Stellar account");
  return {
    server: serverFor(network.sorobanRpcUrl, timing),
    passphrase: network.networkPassphrase,
    operator: Keypair.fromSecret(secret),
    asset,
    contractId: sacContractId(asset, network.networkPassphrase),
    payer,
    payee,
    timing,
  };
}

const checked = new Map<string, Promise<string>>();

/**
 * The RPC must serve the registry's network: a transaction signed for one passphrase is invalid on another,
 * and the SAC address differs too. Asked once per endpoint per worker; a failed ask is asked again.
 */
export async function assertNetwork(ctx: StellarContext): Promise<void> {
  const url = ctx.server.serverURL.toString();
  let passphrase = checked.get(url);
  if (!passphrase) {
    passphrase = ctx.server.getNetwork().then((network) => network.passphrase);
    checked.set(url, passphrase);
    passphrase.catch(() => checked.delete(url));
  }
  if ((await passphrase) !== ctx.passphrase) refuse("not_configured", "The Soroban RPC serves another network than the registry names");
}
