/** A database of its own for each test file, cloned from the migrated template. Call from a file's top level. */
import { createSql, type Sql } from "../../src/db/client";
import { randomToken } from "../../src/lib/ids";
import { beforeServerStops, TEMPLATE_DB, TEST_SERVER_URL, withDatabase } from "./setup";

export interface TestDatabase {
  sql: Sql;
  url: string;
  name: string;
  /** Closes the pool, and starts dropping the database (the run waits for it before the server stops). */
  drop(): Promise<void>;
}

/** Creates a fresh copy of the template; resolves to its name. */
async function createClone(): Promise<string> {
  const name = `billing_test_${randomToken(10).toLowerCase()}`;
  const admin = createSql(TEST_SERVER_URL, { max: 1 });
  try {
    await admin.unsafe(`create database ${name} template ${TEMPLATE_DB}`);
  } finally {
    await admin.end();
  }
  return name;
}

// Copying the template's hundreds of relations takes a good part of a second. The files of a run share this
// module, so each call hands out the copy made ahead and starts the next one, which is then made while the
// file's tests run. No copy is ever handed out twice; the one left at the end of the run is dropped before the
// server stops (below).
let spare: Promise<string> | undefined;

function nextClone(): Promise<string> {
  const ready = spare ?? createClone();
  // Started once this copy is made, so the two never compete (a file run alone waits for one copy, not two).
  spare = ready.then(createClone, createClone);
  // A failed copy is reported by the call that takes it, not as an unhandled rejection now.
  spare.catch(() => {});
  return ready;
}

async function dropDatabase(name: string) {
  const admin = createSql(TEST_SERVER_URL, { max: 1 });
  try {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}

// A DROP DATABASE waits for a checkpoint; the next file need not wait for it, so a file's drop goes on while
// the next one starts, and the run waits for every drop (and reports a failed one) before the server stops.
const dropping = new Set<Promise<void>>();
const dropFailures: unknown[] = [];
beforeServerStops(async () => {
  // The copy made ahead for a file that never came: awaited and dropped before the server stops, so none of its
  // connections is left connecting to a stopped server (a CONNECT_TIMEOUT thrown after the last file's tests).
  const left = spare;
  spare = undefined;
  if (left) await left.then(dropDatabase).catch(() => {});
  await Promise.all(dropping);
  if (dropFailures.length) throw new AggregateError(dropFailures, `${dropFailures.length} test databases could not be dropped`);
});

export async function cloneTestDatabase(): Promise<TestDatabase> {
  const name = await nextClone();
  const url = withDatabase(TEST_SERVER_URL, name);
  const sql = createSql(url, { max: 10 });
  async function drop() {
    await sql.end({ timeout: 5 });
    const dropped = dropDatabase(name)
      .catch((error) => void dropFailures.push(error))
      .finally(() => dropping.delete(dropped));
    dropping.add(dropped);
  }
  return { sql, url, name, drop };
}
