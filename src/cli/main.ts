/**
 * The dispatcher: finds the command, answers help, checks every argument, then connects, migrates (so a
 * fresh database works at once) and runs it. `npm run --silent cli -- help` lists the commands.
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../config";
import { Logger } from "../lib/logger";
import { systemClock } from "../lib/clock";
import { connectDatabase } from "../db/connect";
import { migrateDatabase } from "../db/migrate";
import { requireTeam } from "../modules/teams/team";
import { UsageError, type Args, type Command } from "./command";
import { commandHelp, overview } from "./help";
import { EXIT, describeFailure, envelope, toJson } from "./output";

/**
 * The command groups, each loaded only when a command line names one of its leading words: a group's file pulls
 * in the service modules its commands call (the invoice and subscription groups bring the chain clients), so a
 * command loads its own group, not every group's. The order is the overview's order.
 */
interface Group {
  /** The first word of every command of the group (test/cli/help.test.ts checks the list against the commands). */
  words: string[];
  load(): Promise<Command[]>;
}

export const GROUPS: Group[] = [
  { words: ["migrate", "seed"], load: async () => (await import("./database")).databaseCommands },
  { words: ["team", "key", "session"], load: async () => (await import("./teams")).teamCommands },
  { words: ["operator", "member", "sign-in-link"], load: async () => (await import("./members")).memberCommands },
  { words: ["plan", "feature", "entitlement"], load: async () => (await import("./catalog")).catalogCommands },
  { words: ["plan", "coupon", "feature", "entitlement"], load: async () => (await import("./pricing")).pricingCommands },
  { words: ["credit-pack"], load: async () => (await import("./credit-packs")).creditPackCommands },
  { words: ["override", "company", "credit"], load: async () => (await import("./companies")).companyCommands },
  { words: ["audit"], load: async () => (await import("./audit")).auditCommands },
  { words: ["webhook"], load: async () => (await import("./webhooks")).webhookCommands },
  // Invoice deliveries, refunds, documents (pdf | pain013 | camt054), settlement settings and payments, then the
  // invoices themselves.
  { words: ["invoice"], load: async () => (await import("./invoice-send")).invoiceSendCommands },
  { words: ["invoice"], load: async () => (await import("./invoice-refunds")).invoiceRefundCommands },
  { words: ["invoice"], load: async () => (await import("./invoice-documents")).invoiceDocumentCommands },
  { words: ["settlement-wallet", "invoice-settings"], load: async () => (await import("./billing-settings")).billingSettingsCommands },
  { words: ["invoice"], load: async () => (await import("./invoice-payments")).invoicePaymentCommands },
  { words: ["invoice"], load: async () => (await import("./invoices")).invoiceCommands },
  // Operating subscriptions
  { words: ["subscription", "subscription-settings"], load: async () => (await import("./subscriptions")).subscriptionCommands },
  // Auto-topup
  { words: ["agent-dispatch", "agent-topup"], load: async () => (await import("./agents")).agentCommands },
];

/** The commands of the groups that answer `word` (every group's when none is given), in the overview's order. */
export async function loadCommands(word?: string): Promise<Command[]> {
  const groups = word === undefined ? GROUPS : GROUPS.filter((g) => g.words.includes(word));
  return (await Promise.all(groups.map((g) => g.load()))).flat();
}

interface Io {
  out(text: string): void;
  err(text: string): void;
}

const stdio: Io = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

/** The command named by the leading words of `argv` (two words, or one: "key create", "seed"). */
async function findCommand(words: string[]): Promise<Command> {
  const commands = await loadCommands(words[0]);
  const command =
    commands.find((c) => c.name === words.slice(0, 3).join(" ")) ??
    commands.find((c) => c.name === words.slice(0, 2).join(" ")) ??
    commands.find((c) => c.name === words[0]);
  if (!command) throw new UsageError(`Unknown command '${words.join(" ")}'; \`npm run --silent cli -- help\` lists the commands`);
  return command;
}

function parseOptions(command: Command, argv: string[]): { args: Args; help: boolean } {
  const options = Object.fromEntries(Object.keys(command.options).map((name) => [name, { type: "string" as const }]));
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, help: { type: "boolean", short: "h" } }, strict: true, allowPositionals: true });
  } catch (error) {
    // Node's message goes on to explain `--` for positionals, which no command takes.
    const reason = (error as Error).message.split(". ")[0];
    throw new UsageError(`${reason} (\`npm run --silent cli -- help ${command.name}\` lists its options)`);
  }
  const { help, ...args } = parsed.values as Args & { help?: boolean };
  const positionals = [...parsed.positionals];
  if (command.positional && positionals.length > 0 && args[command.positional] === undefined) args[command.positional] = positionals.shift();
  if (positionals.length) throw new UsageError(`Unexpected argument '${positionals[0]}' after '${command.name}'`);
  const missing = Object.keys(command.options).filter((name) => command.options[name]!.required && !args[name]);
  if (!help && missing.length) throw new UsageError(`${missing.map((m) => `--${m}`).join(", ")} ${missing.length > 1 ? "are" : "is"} required`);
  return { args, help: help === true };
}

async function execute(argv: string[], io: Io): Promise<number> {
  const firstOption = argv.findIndex((a) => a.startsWith("-"));
  const words = firstOption === -1 ? argv : argv.slice(0, firstOption);
  if (words[0] === "help") {
    io.out(words.length > 1 ? commandHelp(await findCommand(words.slice(1))) : overview(await loadCommands()));
    return EXIT.ok;
  }
  if (words.length === 0) {
    if (argv.length > 0 && argv[0] !== "--help" && argv[0] !== "-h")
      throw new UsageError(`Unknown option '${argv[0]}'; \`npm run --silent cli -- help\` lists the commands`);
    io.out(overview(await loadCommands()));
    return EXIT.ok;
  }
  const command = await findCommand(words);
  const { args, help } = parseOptions(command, argv.slice(command.name.split(" ").length));
  if (help) {
    io.out(commandHelp(command));
    return EXIT.ok;
  }
  const input = command.parse(args);

  const config = await loadConfig();
  const logger = new Logger("warn", io.err);
  const db = await connectDatabase(config, logger);
  // An interrupted command still stops the database it started (it runs in a session of its own, out of Ctrl-C's reach).
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void db.close().finally(() => process.exit(130)));
  try {
    if (!command.migrates) await migrateDatabase(db.sql, db.url);
    // Every command scoped by --team answers an unknown team as `key create` does, `{"error":"No team …"}` (exit 1),
    // before it reads (an empty list would say the team has nothing) or writes (a foreign-key error).
    if (command.options.team && args.team !== undefined) await requireTeam(db.sql, args.team);
    const result = await command.run(
      { sql: db.sql, databaseUrl: db.url, now: systemClock.now(), config, baseUrl: `http://localhost:${config.port}/api/v1` },
      input,
    );
    io.out(toJson(envelope(result), 2) + "\n");
    return command.exitCode?.(result) ?? EXIT.ok;
  } finally {
    await db.close();
    logger.flush();
  }
}

/** Runs one command line; returns the exit code. Nothing is thrown: every failure is printed to stderr. */
export async function runCli(argv: string[], io: Io = stdio): Promise<number> {
  try {
    return await execute(argv, io);
  } catch (error) {
    const { body, exitCode } = describeFailure(error);
    io.err(toJson(body) + "\n");
    return exitCode;
  }
}
