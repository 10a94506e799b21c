/**
 * The hand-written Multicall3 coder (src/chains/evm/multicall.ts) against viem's generic ABI coder: the same
 * calldata for balanceOf batches (and Multicall3's own getBlockNumber), and the same results decoded, failures and
 * return data of any length included.
 */
import { expect, test } from "bun:test";
import { decodeFunctionData, encodeFunctionData, encodeFunctionResult, erc20Abi, parseAbi, type Hex } from "viem";
import { balanceOfData, decodeAggregate3, encodeAggregate3, GET_BLOCK_NUMBER } from "../../src/chains/evm/multicall";
import { MULTICALL3_ADDRESS } from "../../src/lib/networks";

const MULTICALL3_ABI = parseAbi([
  "struct Call3 { address target; bool allowFailure; bytes callData; }",
  "struct Result { bool success; bytes returnData; }",
  "function aggregate3(Call3[] calls) payable returns (Result[] returnData)",
  "function getBlockNumber() view returns (uint256 blockNumber)",
]);
const hex = (bytes: number) => Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
const address = () => `0x${hex(20)}` as Hex;

test("aggregate3 calldata is viem's, byte for byte", () => {
  const token = address();
  for (const count of [0, 1, 3, 257]) {
    const holders = Array.from({ length: count }, address);
    const calls = [
      { target: MULTICALL3_ADDRESS, allowFailure: true, callData: GET_BLOCK_NUMBER },
      ...holders.map((h) => ({ target: token, allowFailure: count % 2 === 1, callData: balanceOfData(h) })),
    ];
    const ours = encodeAggregate3(calls);
    const viems = encodeFunctionData({
      abi: MULTICALL3_ABI,
      functionName: "aggregate3",
      args: [calls.map((c) => ({ target: c.target as Hex, allowFailure: c.allowFailure, callData: `0x${c.callData}` as Hex }))],
    });
    expect(ours).toBe(viems);
    expect(encodeFunctionData({ abi: MULTICALL3_ABI, functionName: "getBlockNumber" })).toBe(`0x${GET_BLOCK_NUMBER}`);
    const decoded = decodeFunctionData({ abi: MULTICALL3_ABI, data: ours }).args as unknown as [{ callData: Hex }[]];
    const readBack = decoded[0].slice(1).map((c) => (decodeFunctionData({ abi: erc20Abi, data: c.callData }).args as [string])[0].toLowerCase());
    expect(readBack).toEqual(holders.map((h) => h.toLowerCase()));
  }
});

test("aggregate3 results decode as viem decodes them: failures, empty and odd-length return data included", () => {
  const results = [
    { success: true, returnData: `0x${"0".repeat(63)}7` as Hex },
    { success: false, returnData: "0x" as Hex },
    { success: false, returnData: `0x08c379a0${hex(67)}` as Hex },
    { success: true, returnData: `0x${hex(32)}` as Hex },
  ];
  const data = encodeFunctionResult({ abi: MULTICALL3_ABI, functionName: "aggregate3", result: results });
  expect(decodeAggregate3(data)).toEqual(results);
  expect(decodeAggregate3(encodeFunctionResult({ abi: MULTICALL3_ABI, functionName: "aggregate3", result: [] }))).toEqual([]);
  expect(() => decodeAggregate3(data.slice(0, -64) as Hex)).toThrow();
});
