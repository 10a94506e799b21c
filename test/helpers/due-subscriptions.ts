/**
 * Many subscriptions written by set-based SQL, as the renewal scan and job find them after an activation: for each,
 * a company on the plan, an ACTIVE subscription in period 0 and its ACTIVE mandate (10^12 token units left). For the
 * scan's test and bench/subscriptions-renewals.ts; nothing on chain (the chain step is the caller's).
 */
import type { Sql } from "../../src/db/client";
import { newId } from "../../src/lib/ids";
import type { Tenant } from "../../src/lib/tenant";

export interface DueTeam {
  tenant: Tenant;
  planId: string;
  /** the team's settlement wallet on `network` */
  payee: string;
  network: string;
}

export interface DueOptions {
  /** period 0's start; its end (one month later) is when the renewal is due */
  anchor: Date;
  /** list price per month, micro-units of USDC (default 10 USDC) */
  price?: bigint;
  status?: "ACTIVE" | "PAST_DUE" | "TRIALING" | "CANCELED";
}

const hex = (bytes: number) => Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");

/** `count` subscriptions, round robin over `teams`; resolves to their tenants and ids, in insertion order. */
export async function insertDueSubscriptions(
  sql: Sql,
  teams: readonly DueTeam[],
  count: number,
  o: DueOptions,
): Promise<{ tenant: Tenant; id: string }[]> {
  const rows = Array.from({ length: count }, (_, i) => ({
    team: teams[i % teams.length]!,
    company: newId("comp"),
    sub: newId("sub"),
    mandate: newId("mnd"),
  }));
  const col = (f: (r: (typeof rows)[number]) => string) => rows.map(f);
  const status = o.status ?? "ACTIVE";
  await sql.begin(async (tx) => {
    await tx`
      insert into companies (id, team_id, environment, external_id, active_plan_id)
      select c, t, e, 'co-' || c, p
      from unnest(${col((r) => r.company)}::text[], ${col((r) => r.team.tenant.teamId)}::text[], ${col((r) => r.team.tenant.environment)}::text[],
        ${col((r) => r.team.planId)}::text[]) as x(c, t, e, p)`;
    await tx`
      insert into subscriptions (id, team_id, environment, company_id, plan_id, billing_period, price_amount, currency, network,
        token_symbol, payment_account, payee_wallet, status, anchor_at, period_index, current_period_start, current_period_end,
        canceled_at, token_id, activation_reference, activation_tx_hash, next_attempt_at)
      select s, t, e, c, p, 'monthly', ${(o.price ?? 10_000_000n).toString()}::bigint, 'USDC', n, 'USDC', w, y, ${status},
        ${o.anchor}::timestamptz, 0, ${o.anchor}::timestamptz, ${o.anchor}::timestamptz + interval '1 month',
        case when ${status} = 'CANCELED' then ${o.anchor}::timestamptz end,
        ('x' || substr(md5(s), 1, 15))::bit(60)::bigint::text, '0x' || encode(sha256(convert_to(s, 'utf8')), 'hex'),
        '0x' || encode(sha256(convert_to(c, 'utf8')), 'hex'),
        case when ${status} <> 'CANCELED' then ${o.anchor}::timestamptz + interval '1 month' end
      from unnest(${col((r) => r.sub)}::text[], ${col((r) => r.team.tenant.teamId)}::text[], ${col((r) => r.team.tenant.environment)}::text[],
        ${col((r) => r.company)}::text[], ${col((r) => r.team.planId)}::text[], ${col((r) => r.team.network)}::text[],
        ${col(() => `0x${hex(20)}`)}::text[], ${col((r) => r.team.payee)}::text[]) as x(s, t, e, c, p, n, w, y)`;
    await tx`
      insert into mandates (id, team_id, environment, subscription_id, company_id, network, token_symbol, payer_wallet, recipient_wallet,
        authorized_amount, remaining_amount, status)
      select m, s.team_id, s.environment, s.id, s.company_id, s.network, 'USDC', s.payment_account, s.payee_wallet, 1000000000000, 1000000000000, 'ACTIVE'
      from unnest(${col((r) => r.mandate)}::text[], ${col((r) => r.sub)}::text[]) as x(m, sid) join subscriptions s on s.id = x.sid`;
  });
  return rows.map((r) => ({ tenant: r.team.tenant, id: r.sub }));
}
