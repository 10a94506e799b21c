/**
 * Who runs the embedded PostgreSQL of a data folder. PostgreSQL records its own pid and port in
 * `pg/postmaster.pid`; we record the pid of the process that started it (and will stop it) in `pg.owner`
 * beside the data. A live owner means "shared: use it, never stop it" (the CLI while `npm start` runs);
 * a server whose owner is gone was left by a killed run (kill -9) and is stopped at the next start.
 */
import { rm } from "node:fs/promises";

export interface Postmaster {
  pid: number;
  port: number;
}

const ownerFile = (dataDir: string) => `${dataDir}/pg.owner`;

/** True while a process with this pid exists (EPERM: it exists but belongs to another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/** The live server of this PostgreSQL data folder, or null (none, or a lock file left by one that died). */
export async function livePostmaster(pgDir: string): Promise<Postmaster | null> {
  const file = Bun.file(`${pgDir}/postmaster.pid`);
  const text = await file.text().catch(() => null);
  if (text === null) return null;
  // Line 1 is the postmaster's pid, line 4 its port (PostgreSQL's lock-file layout).
  const lines = text.split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? { pid, port } : null;
}

/** The pid of the live process that owns the data folder's server, or null when it is gone. */
export async function liveOwner(dataDir: string): Promise<number | null> {
  const pid = Number(
    await Bun.file(ownerFile(dataDir))
      .text()
      .catch(() => ""),
  );
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
}

export async function claimOwnership(dataDir: string): Promise<void> {
  await Bun.write(ownerFile(dataDir), String(process.pid));
}

/** Drops the claim, unless another process has taken it since. */
export async function releaseOwnership(dataDir: string): Promise<void> {
  const holder = await Bun.file(ownerFile(dataDir))
    .text()
    .catch(() => "");
  if (holder === String(process.pid)) await rm(ownerFile(dataDir), { force: true });
}
