/**
 * Verifies a tenant's audit chain (migration 00013, sql/functions/audit_log_link.sql): walks it in chain_seq
 * order a page at a time (constant memory, however long the chain), recomputing every hash in the database
 * with the same function that linked it. The first entry that fails names the break:
 *  - hash_mismatch: the entry's content is not what was hashed when it was written (it was edited);
 *  - broken_link: its prev_hash is not the hash of the entry before it (an entry before it was deleted,
 *    or entries were reordered or replaced);
 *  - gap: the links hold but chain_seq skips (entries were cut out and the rest re-hashed to match).
 * What the chain alone cannot see: the newest entries deleted, or the chain rewritten from some entry on by
 * someone able to recompute it (anyone who can write the table). For that, pass an `anchor`, a head recorded
 * outside the database earlier:
 *  - anchor_mismatch: the entry at the anchor's chainSeq has another hash (rewritten up to there);
 *  - truncated: the chain ends before the anchor's chainSeq (brokenAt.id is null: there is no entry).
 */
import type { Db } from "../../db/queries";
import type { Tenant } from "../../lib/tenant";
import { listChainPage } from "./repo";

/** prev_hash of each chain's first entry (the same 64 zeros as in audit_log_link and migration 00013). */
export const GENESIS_HASH = "0".repeat(64);
const PAGE = 1000;

export type ChainBreak = "hash_mismatch" | "broken_link" | "gap" | "anchor_mismatch" | "truncated";

/** A head recorded earlier, outside the database: the chain must still hold this hash at this position. */
export interface ChainAnchor {
  chainSeq: number;
  hash: string;
}

export type ChainVerdict =
  | { ok: true; entries: number; head: { chainSeq: number; hash: string } | null }
  | { ok: false; entries: number; brokenAt: { id: string | null; chainSeq: number }; reason: ChainBreak; detail: string };

const DETAIL: Record<ChainBreak, string> = {
  hash_mismatch: "The entry's stored hash does not match its content: it was edited after it was written",
  broken_link: "The entry's prev_hash is not the hash of the entry before it: an entry was deleted, reordered or replaced",
  gap: "chain_seq skips entries although the links hold: entries were removed and the chain re-hashed",
  anchor_mismatch: "The entry at the anchored position has another hash than the one recorded: the chain was rewritten up to here",
  truncated: "The chain ends before the anchored position: its newest entries were deleted",
};

export async function verifyAuditChain(db: Db, tenant: Tenant, anchor: ChainAnchor | null = null, pageSize = PAGE): Promise<ChainVerdict> {
  let entries = 0;
  let prevHash = GENESIS_HASH;
  let lastSeq = 0n;
  for (;;) {
    const rows = await listChainPage(db, tenant, lastSeq, pageSize);
    for (const row of rows) {
      const reason: ChainBreak | null =
        row.recomputed !== row.hash
          ? "hash_mismatch"
          : row.prev_hash !== prevHash
            ? "broken_link"
            : row.chain_seq !== lastSeq + 1n
              ? "gap"
              : anchor && row.chain_seq === BigInt(anchor.chainSeq) && row.hash !== anchor.hash
                ? "anchor_mismatch"
                : null;
      if (reason) return { ok: false, entries, brokenAt: { id: row.id, chainSeq: Number(row.chain_seq) }, reason, detail: DETAIL[reason] };
      entries++;
      prevHash = row.hash;
      lastSeq = row.chain_seq;
    }
    if (rows.length < pageSize) break;
  }
  if (anchor && BigInt(anchor.chainSeq) > lastSeq)
    return { ok: false, entries, brokenAt: { id: null, chainSeq: anchor.chainSeq }, reason: "truncated", detail: DETAIL.truncated };
  return { ok: true, entries, head: entries ? { chainSeq: Number(lastSeq), hash: prevHash } : null };
}
