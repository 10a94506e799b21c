/**
 * Which ISO 4217 code an ISO 20022 amount (`Ccy`, three capital letters) carries for an invoice currency,
 * which is a token symbol (BILLING.md "Money"). A stablecoin carries the currency it is pegged to: USDC is
 * redeemable 1:1 for US dollars, so its amounts are dollar amounts and a bank's reconciliation can read them
 * as such. A token without a peg (ETH, XLM, SOL: the native tokens of the registry) has no currency to
 * name, and ISO 4217 has a code for exactly that: XXX, "transactions where no currency is involved". Either
 * way the document also names the token, its network and the exact amount in its remittance text, so
 * nothing rests on the code alone.
 */

/** Pegged tokens by symbol (any case): the built-in registry's USDC, and the common stablecoins a registry file may add. */
const PEGS: Readonly<Record<string, string>> = {
  USDC: "USD",
  USDT: "USD",
  PYUSD: "USD",
  USDP: "USD",
  DAI: "USD",
  EURC: "EUR",
};

/** ISO 4217 "no currency". */
export const NO_CURRENCY = "XXX";

export const isoCurrencyOf = (symbol: string): string => PEGS[symbol.toUpperCase()] ?? NO_CURRENCY;

/** The mapping as a table (docs/invoices.md#iso-20022-mapping, OpenAPI descriptions). */
export const PEGGED_TOKENS: readonly (readonly [string, string])[] = Object.entries(PEGS);
