/**
 * Operators: global dashboard accounts (email unique whatever its case, name, Argon2id password hash).
 * Passwords are 12 to 256 characters; they are hashed here and never stored, logged or returned.
 */
import type { Db } from "../../db/queries";
import { newId } from "../../lib/ids";
import { apiError } from "../../lib/errors";
import { insertOperatorRow } from "./repo";
import type { OperatorRow } from "./rows";

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const presentOperator = (r: OperatorRow) => ({ id: r.id, email: r.email, name: r.name, createdAt: r.created_at.toISOString() });

export function checkEmail(email: string): string {
  const trimmed = email.trim();
  if (trimmed.length > 254 || !EMAIL.test(trimmed)) throw apiError("validation_failed", "Invalid email", { email: "An email address" });
  return trimmed;
}

export function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX)
    throw apiError("validation_failed", "Invalid password", { password: `${PASSWORD_MIN} to ${PASSWORD_MAX} characters` });
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 200) throw apiError("validation_failed", "Invalid name", { name: "1 to 200 characters" });
  return trimmed;
}

/** An Argon2id hash costing `memoryKib` KiB (config PASSWORD_HASH_MEMORY_KIB); a check reads the cost from the hash. */
export const hashPassword = (password: string, memoryKib: number) => Bun.password.hash(password, { algorithm: "argon2id", memoryCost: memoryKib });

// An account that does not exist (or has no password yet) is checked against a hash of the configured cost,
// so its answer takes as long as a wrong password's: timing tells no one which emails have accounts.
const dummyHashes = new Map<number, Promise<string>>();

function dummyHash(memoryKib: number): Promise<string> {
  let hash = dummyHashes.get(memoryKib);
  if (!hash) dummyHashes.set(memoryKib, (hash = hashPassword(crypto.randomUUID(), memoryKib)));
  return hash;
}

/** Whether `password` matches `hash`; with no usable hash, false, after the same work (a hash of `memoryKib`). */
export async function passwordMatches(hash: string | null | undefined, password: string, memoryKib: number): Promise<boolean> {
  const usable = typeof hash === "string" && hash.startsWith("$argon2");
  const target = usable ? hash : await dummyHash(memoryKib);
  const ok = await Bun.password.verify(password, target);
  return usable && ok;
}

/** Inserts an operator; `passwordHash` null leaves an account no password can open (automation, see sessions). */
export async function insertOperator(db: Db, input: { email: string; name: string; passwordHash: string | null }) {
  const row = await insertOperatorRow(db, {
    id: newId("op"),
    email: checkEmail(input.email),
    name: checkName(input.name),
    passwordHash: input.passwordHash ?? "!no-password",
  });
  return row!;
}

/** `operator create`: a new account with a password (409 when the email is taken, whatever its case). */
export async function createOperator(db: Db, input: { email: string; name: string; password: string }, memoryKib: number) {
  checkEmail(input.email);
  checkName(input.name);
  checkPassword(input.password);
  return presentOperator(await insertOperator(db, { ...input, passwordHash: await hashPassword(input.password, memoryKib) }));
}
