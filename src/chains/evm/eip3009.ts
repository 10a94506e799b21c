/** The EIP-3009 surface of a token (USDC's FiatTokenV2) and the typed data its authorizations are signed over. */
import { getAddress, parseAbi, type Hex } from "viem";
import type { Eip3009Authorization } from "../x402-types";

export const EIP3009_ABI = parseAbi([
  "function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)",
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "function balanceOf(address account) view returns (uint256)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
]);

export const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

/** The typed data of `authorization` under the token's EIP-712 domain on `chainId`. */
export const authorizationTypedData = (
  domain: { name: string; version: string; chainId: number; verifyingContract: string },
  authorization: Eip3009Authorization,
) => ({
  domain: { ...domain, verifyingContract: getAddress(domain.verifyingContract) },
  types: TRANSFER_WITH_AUTHORIZATION_TYPES,
  primaryType: "TransferWithAuthorization" as const,
  message: {
    from: getAddress(authorization.from),
    to: getAddress(authorization.to),
    value: BigInt(authorization.value),
    validAfter: BigInt(authorization.validAfter),
    validBefore: BigInt(authorization.validBefore),
    nonce: authorization.nonce as Hex,
  },
});
