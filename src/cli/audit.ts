/** `audit verify`: checks a tenant's tamper-evident audit chain and names the first broken entry. */
import { verifyAuditChain, type ChainAnchor, type ChainVerdict } from "../modules/audit/verify";
import { ENVIRONMENT_OPTION, TEAM_OPTION, tenant, wholeNumber } from "./args";
import { command, UsageError } from "./command";
import { EXIT } from "./output";

export const auditCommands = [
  command({
    name: "audit verify",
    summary: "Verify a team's audit log chain; exit 1 naming the first broken entry",
    options: {
      ...TEAM_OPTION,
      ...ENVIRONMENT_OPTION,
      anchor: { value: "<chainSeq>:<hash>", help: "A head printed by an earlier verify and kept elsewhere: the chain must still hold it" },
    },
    parse: (a) => ({ tenant: tenant(a), anchor: parseAnchor(a.anchor) }),
    run: ({ sql }, { tenant, anchor }) => verifyAuditChain(sql, tenant, anchor),
    // The verdict is printed either way ({data}); a broken chain is a failure a script must see.
    exitCode: (result) => ((result as ChainVerdict).ok ? EXIT.ok : EXIT.failure),
  }),
];

function parseAnchor(value: string | undefined): ChainAnchor | null {
  if (value === undefined) return null;
  const [seq, hash, ...rest] = value.split(":");
  if (rest.length || !hash || !/^[0-9a-f]{64}$/.test(hash)) throw new UsageError("--anchor must be <chainSeq>:<64 lowercase hex digits>");
  return { chainSeq: Number(wholeNumber("anchor", seq!, 1n)), hash };
}
