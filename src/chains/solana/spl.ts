/**
 * The few SPL Token, Associated Token Account and Memo instructions the subscription adapter sends, and the
 * two SPL Token account layouts it reads, written out from the programs' wire formats. By hand rather than
 * imported: @solana/spl-token (a dev dependency) brings the Token-2022 extension codecs along for what is
 * here a handful of byte strings. The tests run every instruction through the real programs in litesvm
 * and read the results back with @solana/spl-token, so the two encodings are checked against each other.
 * Only the classic Token program (USDC's) is spoken; a Token-2022 mint fails its first transfer.
 */
import { PublicKey, TransactionInstruction, type AccountInfo, type AccountMeta } from "@solana/web3.js";

export const TOKEN_PROGRAM = new PublicKey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
export const ASSOCIATED_TOKEN_PROGRAM = new PublicKey("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");
const SYSTEM_PROGRAM = new PublicKey("11111111111111111111111111111111");
/** SPL Memo v2+: with no accounts given, it only checks that the data is UTF-8 and logs it. */
export const MEMO_PROGRAM = new PublicKey("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");
export const MINT_SIZE = 82;
export const TOKEN_ACCOUNT_SIZE = 165;

// Token program instruction tags (spl-token's TokenInstruction enum).
const SET_AUTHORITY = 6;
const MINT_TO = 7;
const TRANSFER_CHECKED = 12;
const INITIALIZE_MINT_2 = 20;
const MINT_TOKENS_AUTHORITY = 0; // AuthorityType::MintTokens
const CREATE_IDEMPOTENT = 1; // the ATA program's second instruction

const u64 = (value: bigint): number[] => {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, value, true);
  return [...bytes];
};
/** An optional key inside instruction data: one tag byte, then the key when present. */
const optionalKey = (key: PublicKey | null): number[] => (key ? [1, ...key.toBytes()] : [0]);

const meta = (pubkey: PublicKey, isWritable: boolean, isSigner = false): AccountMeta => ({ pubkey, isSigner, isWritable });
const token = (keys: AccountMeta[], data: number[]) => new TransactionInstruction({ programId: TOKEN_PROGRAM, keys, data: Buffer.from(data) });

/** The owner's associated token account for a mint (any owner: a team's settlement wallet may be a PDA). */
export const associatedTokenAddress = (owner: PublicKey, mint: PublicKey): PublicKey =>
  PublicKey.findProgramAddressSync([owner.toBytes(), TOKEN_PROGRAM.toBytes(), mint.toBytes()], ASSOCIATED_TOKEN_PROGRAM)[0];

/** Creates the owner's associated token account, `funder` paying its rent; does nothing if it exists. */
export const createAssociatedTokenAccountIdempotent = (funder: PublicKey, owner: PublicKey, mint: PublicKey) =>
  new TransactionInstruction({
    programId: ASSOCIATED_TOKEN_PROGRAM,
    keys: [
      meta(funder, true, true),
      meta(associatedTokenAddress(owner, mint), true),
      meta(owner, false),
      meta(mint, false),
      meta(SYSTEM_PROGRAM, false),
      meta(TOKEN_PROGRAM, false),
    ],
    data: Buffer.from([CREATE_IDEMPOTENT]),
  });

/** The accounts and amount of one transferChecked, by name (four of them are public keys: positions would mix them up). */
export interface Transfer {
  source: PublicKey;
  mint: PublicKey;
  destination: PublicKey;
  authority: PublicKey;
  amount: bigint;
  decimals: number;
}

/** Moves `amount` from `source`, signed by its owner or (our case) its delegate; `decimals` must match the mint. */
export const transferChecked = ({ source, mint, destination, authority, amount, decimals }: Transfer) =>
  token([meta(source, true), meta(mint, false), meta(destination, true), meta(authority, false, true)], [TRANSFER_CHECKED, ...u64(amount), decimals]);

export const initializeMint2 = (mint: PublicKey, decimals: number, mintAuthority: PublicKey, freezeAuthority: PublicKey | null) =>
  token([meta(mint, true)], [INITIALIZE_MINT_2, decimals, ...mintAuthority.toBytes(), ...optionalKey(freezeAuthority)]);

export const mintTo = (mint: PublicKey, destination: PublicKey, authority: PublicKey, amount: bigint) =>
  token([meta(mint, true), meta(destination, true), meta(authority, false, true)], [MINT_TO, ...u64(amount)]);

/** Sets the mint authority to none: no one can ever mint more (the supply is fixed from here on). */
export const removeMintAuthority = (mint: PublicKey, authority: PublicKey) =>
  token([meta(mint, true), meta(authority, false, true)], [SET_AUTHORITY, MINT_TOKENS_AUTHORITY, ...optionalKey(null)]);

export const memo = (text: string) => new TransactionInstruction({ programId: MEMO_PROGRAM, keys: [], data: Buffer.from(text, "utf8") });

export interface TokenAccount {
  mint: PublicKey;
  owner: PublicKey;
  amount: bigint;
  delegate: PublicKey | null;
  delegatedAmount: bigint;
  frozen: boolean;
}

export interface Mint {
  mintAuthority: PublicKey | null;
  supply: bigint;
  decimals: number;
  freezeAuthority: PublicKey | null;
}

const key = (data: Buffer, at: number) => new PublicKey(data.subarray(at, at + 32));
/** An optional key inside account data: a four-byte tag, then the key's 32 bytes (zero when absent). */
const optional = (data: Buffer, at: number) => (data.readUInt32LE(at) === 1 ? key(data, at + 4) : null);
const isToken = (info: AccountInfo<Buffer>, size: number) => info.owner.equals(TOKEN_PROGRAM) && info.data.length === size;

/** A classic SPL token account, or null when the account is anything else (or uninitialized). */
export function decodeTokenAccount(info: AccountInfo<Buffer> | null): TokenAccount | null {
  if (!info || !isToken(info, TOKEN_ACCOUNT_SIZE)) return null;
  const { data } = info;
  const state = data[108]; // 0 uninitialized, 1 initialized, 2 frozen
  if (state !== 1 && state !== 2) return null;
  return {
    mint: key(data, 0),
    owner: key(data, 32),
    amount: data.readBigUInt64LE(64),
    delegate: optional(data, 72),
    delegatedAmount: data.readBigUInt64LE(121),
    frozen: state === 2,
  };
}

/** A classic SPL mint, or null when the account is anything else (or uninitialized). */
export function decodeMint(info: AccountInfo<Buffer> | null): Mint | null {
  if (!info || !isToken(info, MINT_SIZE) || info.data[45] !== 1) return null;
  const { data } = info;
  return { mintAuthority: optional(data, 0), supply: data.readBigUInt64LE(36), decimals: data[44]!, freezeAuthority: optional(data, 46) };
}
