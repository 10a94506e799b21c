/** An EVM transaction hash: 0x and 32 bytes as 64 hex digits (either case). */
export const isEvmTxHash = (value: string): boolean => /^0x[0-9a-fA-F]{64}$/.test(value);
