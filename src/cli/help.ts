/** Help text, written from each command's declared options so it cannot drift from what is accepted. */
import type { Command } from "./command";
import { EXIT } from "./output";

const PROGRAM = "npm run --silent cli --";

/** A command's usage line; an option a command takes as its argument (`positional`) is shown as that argument. */
const synopsis = (c: Command) =>
  [
    PROGRAM,
    c.name,
    ...(c.positional ? [c.options[c.positional]!.value] : []),
    ...Object.entries(c.options)
      .filter(([name]) => name !== c.positional)
      .map(([name, o]) => (o.required ? `--${name} ${o.value}` : `[--${name} ${o.value}]`)),
  ].join(" ");

export function commandHelp(c: Command): string {
  const rows = Object.entries(c.options).map(([name, o]) => [
    `--${name} ${o.value}`,
    [o.required ? "required" : "", o.help, name === c.positional ? "or as the argument after the command" : ""].filter(Boolean).join("; "),
  ]);
  const width = Math.max(0, ...rows.map(([left]) => left!.length));
  const options = rows.length ? `\n\nOptions:\n${rows.map(([left, right]) => `  ${left!.padEnd(width)}  ${right}`.trimEnd()).join("\n")}` : "";
  return `${c.summary}.\n\nUsage: ${synopsis(c)}${options}\n`;
}

export function overview(commands: Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return `Usage: ${PROGRAM} <command> [options]

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join("\n")}

\`${PROGRAM} help <command>\` or \`<command> --help\` shows a command's options.
Output: one JSON document on stdout, in the API's shapes: {data: ...}, or {data, count, nextCursor} for a list.
Errors: one JSON line on stderr ({error}, {error, code} or {error, details}); exit ${EXIT.ok} ok, ${EXIT.failure} failure, ${EXIT.usage} bad input.
`;
}
