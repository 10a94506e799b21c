/** `migrate` and `seed`. */
import { migrateDatabase } from "../db/migrate";
import { command } from "./command";
import { seed } from "./seed";

export const databaseCommands = [
  command({
    name: "migrate",
    summary: "Apply pending migrations (the server also applies them at start)",
    options: {},
    migrates: true,
    parse: () => undefined,
    run: ({ sql, databaseUrl }) => migrateDatabase(sql, databaseUrl),
  }),
  command({
    name: "seed",
    summary: "A demo team: one key of each kind, a dashboard session, a catalog and a company with credits",
    options: {},
    parse: () => undefined,
    run: ({ sql, now, baseUrl }) => seed(sql, now, baseUrl),
  }),
];
