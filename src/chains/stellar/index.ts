/** The Stellar family's entry point for the chain worker. */
import type { ChainAdapter } from "../types";
import { createStellarAdapter } from "./adapter";

export { createStellarAdapter, type StellarAdapterOptions } from "./adapter";
export { fromStroops, toStroops } from "./amount";

export const stellarAdapter: ChainAdapter = createStellarAdapter();
