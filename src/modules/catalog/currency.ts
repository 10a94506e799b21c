/**
 * What a price or an amount-off coupon may be written in: a token the service can settle. The currency of
 * an amount is the settlement token's symbol (BILLING.md "Money"), so a currency is accepted when a network
 * of the chain registry that the tenant's environment may settle on (test networks for development, main
 * networks for production) lists a token of that symbol; the registry's own spelling is stored ("usdc" is
 * kept as "USDC").
 *
 * An amount is accepted only when EVERY such token can represent it exactly: invoice micro-units convert to
 * token units by an exact multiplication for tokens of 6 or more decimals, but a token of 2 decimals cannot
 * be paid "0.001". Refusing such a price when it is written (rather than when a subscription charges it)
 * means a price on the catalog can always be settled, on whichever accepted network the customer pays.
 */
import { networkAllowedIn, type ChainRegistry } from "../../lib/networks";
import { formatMicro, microToToken } from "../../lib/money";
import type { Environment } from "../../lib/tenant";

export interface CurrencyTokens {
  /** The symbol as the registry spells it. */
  symbol: string;
  /** The fewest decimals among the tokens of that symbol the environment settles in. */
  minDecimals: number;
  networks: string[];
}

/** The tokens of `currency` (any case) the environment may settle in; null when there is none. */
export function currencyTokens(registry: ChainRegistry, environment: Environment, currency: string): CurrencyTokens | null {
  const wanted = currency.toLowerCase();
  let found: CurrencyTokens | null = null;
  for (const network of registry.list()) {
    if (!networkAllowedIn(network, environment)) continue;
    const token = network.tokens.find((t) => t.symbol.toLowerCase() === wanted);
    if (!token) continue;
    found ??= { symbol: token.symbol, minDecimals: token.decimals, networks: [] };
    found.minDecimals = Math.min(found.minDecimals, token.decimals);
    found.networks.push(network.id);
  }
  return found;
}

/** The symbols the environment can settle in, for the message that refuses an unknown one. */
export function knownCurrencies(registry: ChainRegistry, environment: Environment): string[] {
  const symbols = new Set<string>();
  for (const network of registry.list()) if (networkAllowedIn(network, environment)) for (const t of network.tokens) symbols.add(t.symbol);
  return [...symbols].sort();
}

/**
 * Checks an amount in micro-units against a currency: the registry's symbol, or a message for the field's
 * 400 details (`field` names where the currency was given, `amountField` the amount).
 */
export function checkCurrencyAmount(
  registry: ChainRegistry,
  environment: Environment,
  currency: string,
  amount: bigint | null,
): { ok: true; symbol: string } | { ok: false; on: "currency" | "amount"; expected: string } {
  const tokens = currencyTokens(registry, environment, currency);
  if (!tokens) {
    return {
      ok: false,
      on: "currency",
      expected: `Expected a token this environment settles in: ${knownCurrencies(registry, environment).join(", ")}`,
    };
  }
  if (amount !== null) {
    const converted = microToToken(amount, tokens.minDecimals);
    if (!converted.ok) {
      return {
        ok: false,
        on: "amount",
        expected: `${formatMicro(amount)} ${tokens.symbol} cannot be represented by ${tokens.symbol} on every network (${tokens.minDecimals} decimals): ${converted.expected}`,
      };
    }
  }
  return { ok: true, symbol: tokens.symbol };
}
