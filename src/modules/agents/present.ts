/** The API's view of the auto-topup rows. `chainId` is left out, never null, off EVM. */
import { explorerTxUrl, type ChainRegistry } from "../../lib/networks";
import type { DispatchRow, FundingMandateRow, TopupConfigRow } from "./rows";
import type { AgentDispatchConfig, AgentFundingMandate, AgentTopupDispatch } from "./schemas";

const chainIdOf = (chains: ChainRegistry, network: string) => {
  const chainId = chains.get(network)?.chainId;
  return typeof chainId === "number" ? { chainId } : {};
};

export const presentConfig = (chains: ChainRegistry, row: TopupConfigRow): AgentDispatchConfig => ({
  id: row.id,
  minBalanceThreshold: row.min_balance_threshold,
  topupAmount: row.topup_amount,
  targetWallet: row.target_wallet,
  ...chainIdOf(chains, row.network),
  network: row.network,
  token: row.token_symbol,
  enabled: row.enabled,
  armed: row.armed,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

export const presentFundingMandate = (chains: ChainRegistry, row: FundingMandateRow): AgentFundingMandate => ({
  id: row.id,
  network: row.network,
  ...chainIdOf(chains, row.network),
  token: row.token_symbol,
  fundingWallet: row.funding_wallet,
  operator: row.operator,
  authorizedAmount: row.authorized_amount,
  remainingAmount: row.remaining_amount,
  dailyCap: row.daily_cap,
  signedTotal: row.signed_total,
  status: row.status,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

export const presentDispatch = (chains: ChainRegistry, row: DispatchRow): AgentTopupDispatch => ({
  id: row.id,
  configId: row.config_id,
  network: row.network,
  ...chainIdOf(chains, row.network),
  token: row.token_symbol,
  targetWallet: row.target_wallet,
  fundingWallet: row.funding_wallet,
  amount: row.amount,
  balanceSeen: row.balance_seen,
  status: row.status,
  reason: row.reason,
  detail: row.detail,
  txHash: row.tx_hash,
  explorerUrl: explorerTxUrl(chains.get(row.network), row.tx_hash),
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});
