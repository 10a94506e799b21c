/** The Solana family's ChainAdapter (web3.js 1.x `Connection` over JSON-RPC). */
import type { ChainAdapter } from "../types";
import { createSolanaAdapter } from "./adapter";

export { createSolanaAdapter, type SolanaAdapterOptions } from "./adapter";

export const solanaAdapter: ChainAdapter = createSolanaAdapter();
