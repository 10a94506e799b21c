/**
 * The service's operator keys, one per chain family: the signer that activates, charges and revokes
 * subscriptions. They live in the environment (config.ts validates their shape at boot) and reach only the
 * chain workers, whose environment the pool sets; nothing else in the process reads them, and no chain
 * answer or log line ever carries them.
 */
import type { ChainFamily } from "./networks";

export const OPERATOR_KEY_VARIABLES = [
  "SUBSCRIPTION_EVM_OPERATOR_KEY",
  "SUBSCRIPTION_SOLANA_OPERATOR_KEY",
  "SUBSCRIPTION_STELLAR_OPERATOR_SECRET",
] as const;

export type OperatorKeys = Partial<Record<(typeof OPERATOR_KEY_VARIABLES)[number], string>>;

const VARIABLE: Record<ChainFamily, (typeof OPERATOR_KEY_VARIABLES)[number]> = {
  evm: "SUBSCRIPTION_EVM_OPERATOR_KEY",
  solana: "SUBSCRIPTION_SOLANA_OPERATOR_KEY",
  stellar: "SUBSCRIPTION_STELLAR_OPERATOR_SECRET",
};

/** Inside a chain worker: the family's operator key, or undefined when the deployment set none. */
export const operatorKey = (family: ChainFamily): string | undefined => Bun.env[VARIABLE[family]] || undefined;
