/**
 * Multicall3 `aggregate3` calldata and results, encoded and decoded by hand for the one shape the top-up monitor
 * sends: many `balanceOf(address)` calls. viem's generic ABI coder took ~75 us per call here (checksumming each
 * address, encoding each call, then the array of tuples: about 0.75 s of a 10,000-wallet read on this machine,
 * most of the cycle; bench/README.md "Auto-topup monitor"). The layout is the ABI's: test/chains/evm-multicall.test.ts
 * checks both directions against viem's coder.
 */
import type { Hex } from "viem";

/** aggregate3((address,bool,bytes)[]) */
const AGGREGATE3 = "82ad56cb";
/** balanceOf(address) */
const BALANCE_OF = "70a08231";
/** getBlockNumber() */
export const GET_BLOCK_NUMBER = "42cbb15c";

const word = (n: number | bigint) => n.toString(16).padStart(64, "0");
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export interface Call3 {
  /** 0x + 40 hex digits */
  target: string;
  allowFailure: boolean;
  /** hex without 0x */
  callData: string;
}

export const isHexAddress = (address: string): boolean => ADDRESS.test(address);

/** `balanceOf(holder)` calldata, hex without 0x; the holder must be 0x + 40 hex digits (any case). */
export const balanceOfData = (holder: string): string => `${BALANCE_OF}${"0".repeat(24)}${holder.slice(2).toLowerCase()}`;

/** One call's tuple (address, bool, bytes): its head, then its bytes' length and padded data. */
function tuple(call: Call3): string {
  const bytes = call.callData.length / 2;
  const padded = call.callData.padEnd(Math.ceil(bytes / 32) * 64, "0");
  return `${"0".repeat(24)}${call.target.slice(2).toLowerCase()}${word(call.allowFailure ? 1 : 0)}${word(96)}${word(bytes)}${padded}`;
}

/** aggregate3(calls) calldata. */
export function encodeAggregate3(calls: readonly Call3[]): Hex {
  const tuples = calls.map(tuple);
  const offsets: string[] = [];
  let offset = calls.length * 32;
  for (const t of tuples) {
    offsets.push(word(offset));
    offset += t.length / 2;
  }
  return `0x${AGGREGATE3}${word(32)}${word(calls.length)}${offsets.join("")}${tuples.join("")}`;
}

export interface Result {
  success: boolean;
  /** hex with 0x */
  returnData: Hex;
}

/** aggregate3's return data: (bool success, bytes returnData)[]; throws on anything malformed. */
export function decodeAggregate3(data: Hex): Result[] {
  const hex = data.slice(2);
  const read = (byte: number) => {
    const text = hex.slice(byte * 2, byte * 2 + 64);
    if (text.length !== 64) throw new Error("aggregate3 result is truncated");
    return Number.parseInt(text, 16);
  };
  const base = read(0);
  const count = read(base);
  const results: Result[] = [];
  for (let i = 0; i < count; i++) {
    const at = base + 32 + read(base + 32 + i * 32);
    const length = read(at + 64);
    const start = (at + 96) * 2;
    if (hex.length < start + length * 2) throw new Error("aggregate3 result is truncated");
    results.push({ success: read(at) === 1, returnData: `0x${hex.slice(start, start + length * 2)}` });
  }
  return results;
}
