export { evmAdapter } from "./adapter";
