/** `audit verify`: checks a tenant's tamper-evident audit chain and names the first broken entry. */
import { verifyAuditChain, type ChainVerdict } from "../modules/audit/verify";
import { ENVIRONMENT_OPTION, TEAM_OPTION, tenant } from "./args";
import { command } from "./command";
import { EXIT } from "./output";

export const auditCommands = [
  command({
    name: "audit verify",
    summary: "Verify a team's audit log chain; exit 1 naming the first broken entry",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION },
    parse: (a) => tenant(a),
    run: ({ sql }, t) => verifyAuditChain(sql, t),
    // The verdict is printed either way ({data}); a broken chain is a failure a script must see.
    exitCode: (result) => ((result as ChainVerdict).ok ? EXIT.ok : EXIT.failure),
  }),
];
