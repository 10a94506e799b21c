/** CLI help, answered without a database: the overview, `help <command>` and `<command> --help` for every command. */
import { expect, test } from "bun:test";
import { GROUPS, loadCommands, runCli } from "../../src/cli/main";

const COMMANDS = await loadCommands();

async function run(...argv: string[]) {
  let out = "";
  let err = "";
  const code = await runCli(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

test("help, --help and no arguments list every command and the exit codes", async () => {
  for (const argv of [["help"], ["--help"], ["-h"], []]) {
    const r = await run(...argv);
    expect(r).toMatchObject({ code: 0, err: "" });
    for (const c of COMMANDS) expect(r.out).toContain(`  ${c.name} `);
    expect(r.out).toContain("exit 0 ok, 1 failure, 2 bad input");
  }
});

test.each(COMMANDS.map((c) => [c.name]))("%s: `help <command>` and `--help` show its summary and every option", async (name) => {
  const command = COMMANDS.find((c) => c.name === name)!;
  const viaHelp = await run("help", ...name.split(" "));
  const viaFlag = await run(...name.split(" "), "--help");
  expect(viaHelp).toMatchObject({ code: 0, err: "" });
  expect(viaFlag).toEqual(viaHelp);
  expect(viaHelp.out).toStartWith(command.summary);
  expect(viaHelp.out).toContain(`Usage: npm run --silent cli -- ${name}`);
  for (const option of Object.keys(command.options)) expect(viaHelp.out).toContain(`--${option} `);
});

test("help for an unknown command is bad input", async () => {
  const r = await run("help", "frobnicate");
  expect(r).toMatchObject({ code: 2, out: "" });
  expect(JSON.parse(r.err).error).toStartWith("Unknown command 'frobnicate'");
});

test("each command group names exactly the first words of its commands (a command line loads only those groups)", async () => {
  for (const group of GROUPS) {
    const firstWords = [...new Set((await group.load()).map((c) => c.name.split(" ")[0]))];
    expect(firstWords.toSorted()).toEqual(group.words.toSorted());
  }
});
