/** Operator command line, the dashboard's stand-in: `npm run --silent cli -- <command> [options]` (see src/cli/). */
import { runCli } from "./cli/main";

process.exit(await runCli(process.argv.slice(2)));
