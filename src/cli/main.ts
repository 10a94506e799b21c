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
import { auditCommands } from "./audit";
import { catalogCommands } from "./catalog";
import { pricingCommands } from "./pricing";
import { companyCommands } from "./companies";
import { databaseCommands } from "./database";
import { teamCommands } from "./teams";
import { memberCommands } from "./members";
import { webhookCommands } from "./webhooks";
import { invoiceSendCommands } from "./invoice-send";
import { invoiceRefundCommands } from "./invoice-refunds";
import { invoiceDocumentCommands } from "./invoice-documents";
import { billingSettingsCommands } from "./billing-settings";
import { invoicePaymentCommands } from "./invoice-payments";
import { invoiceCommands } from "./invoices";
import { subscriptionCommands } from "./subscriptions";
import { commandHelp, overview } from "./help";
import { EXIT, describeFailure, envelope, toJson } from "./output";

export const COMMANDS: Command[] = [
  ...databaseCommands,
  ...teamCommands,
  ...memberCommands,
  ...catalogCommands,
  ...pricingCommands,
  ...companyCommands,
  ...auditCommands,
  ...webhookCommands,
  // Invoice deliveries (issue 20, inv-deliveries)
  ...invoiceSendCommands,
  // inv-refunds
  ...invoiceRefundCommands,
  // issue 20 (inv-docs): invoice pdf | pain013 | camt054
  ...invoiceDocumentCommands,
  // Invoices, part inv-payments (issue 20)
  ...billingSettingsCommands,
  ...invoicePaymentCommands,
  ...invoiceCommands,
  // Operating subscriptions (issue 21)
  ...subscriptionCommands,
];

interface Io {
  out(text: string): void;
  err(text: string): void;
}

const stdio: Io = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

/** The command named by the leading words of `argv` (two words, or one: "key create", "seed"). */
function findCommand(words: string[]): Command {
  const command =
    COMMANDS.find((c) => c.name === words.slice(0, 3).join(" ")) ??
    COMMANDS.find((c) => c.name === words.slice(0, 2).join(" ")) ??
    COMMANDS.find((c) => c.name === words[0]);
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
    io.out(words.length > 1 ? commandHelp(findCommand(words.slice(1))) : overview(COMMANDS));
    return EXIT.ok;
  }
  if (words.length === 0) {
    if (argv.length > 0 && argv[0] !== "--help" && argv[0] !== "-h")
      throw new UsageError(`Unknown option '${argv[0]}'; \`npm run --silent cli -- help\` lists the commands`);
    io.out(overview(COMMANDS));
    return EXIT.ok;
  }
  const command = findCommand(words);
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
