/**
 * `count` invoices in one tenant, written by set-based SQL (generate_series) in chunks, each one line and
 * valid against every constraint of migration 00018: the line's tax is the CHECK's round(), the invoice's
 * totals are its line's (the deferred totals trigger checks each at commit), issued ones are numbered
 * INV-000001.. in order, PAID ones paid in full. Statuses: 10% DRAFT, 50% PAID, 30% ISSUED, 5% OVERDUE,
 * 5% VOID. Emails cycle through 20,000 buyers at five domains (`buyer123@globex.example`), wallets are
 * distinct. Only for a throwaway bench database: it writes around the services (no audit, no webhooks).
 */
import type { Sql } from "../src/db/client";

const CHUNK = 10_000;
export const DOMAINS = ["acme", "globex", "initech", "umbrella", "hooli"];

export async function seedInvoices(sql: Sql, teamId: string, count: number, now: Date): Promise<void> {
  for (let from = 1; from <= count; from += CHUNK) {
    const to = Math.min(count, from + CHUNK - 1);
    await sql.begin(async (tx) => {
      await tx`
        with g as (
          select i,
                 case when i % 20 < 2 then 'DRAFT' when i % 20 < 12 then 'PAID' when i % 20 < 18 then 'ISSUED'
                      when i % 20 = 18 then 'OVERDUE' else 'VOID' end as status,
                 (1 + i % 5)::int8 * (1000000 * (1 + i % 100))::int8 as sub,
                 ((i % 3) * 50000)::int as rate,
                 ${now}::timestamptz - make_interval(secs => ${count} - i) as created
          from generate_series(${from}::int, ${to}::int) as i
        ), priced as (
          select *, round(sub::numeric * rate / 1000000)::int8 as tax from g
        )
        insert into invoices (id, team_id, environment, number, sequence, status, currency, customer_email, customer_wallet,
                              metadata, source, payment_terms_days, subtotal, tax_total, total, amount_paid,
                              issued_at, due_at, paid_at, voided_at, created_at, updated_at)
        select 'in_bench' || lpad(i::text, 8, '0'), ${teamId}, 'development',
               case when status = 'DRAFT' then 'DRAFT-in_bench' || lpad(i::text, 8, '0') else 'INV-' || lpad(i::text, 6, '0') end,
               case when status = 'DRAFT' then null else i end,
               status, 'USDC',
               'buyer' || (i % 20000) || '@' || (${DOMAINS}::text[])[1 + i % 5] || '.example',
               '0x' || md5(i::text) || lpad(to_hex(i), 8, '0'),
               '{}', 'manual', 30, sub, tax, sub + tax,
               case when status = 'PAID' then sub + tax else 0 end,
               case when status <> 'DRAFT' then created end,
               case when status = 'OVERDUE' then created + interval '1 day'
                    when status <> 'DRAFT' then ${now}::timestamptz + interval '30 days' end,
               case when status = 'PAID' then created end,
               case when status = 'VOID' then created end,
               created, created
        from priced order by i`;
      await tx`
        insert into invoice_lines (invoice_id, position, description, quantity, unit_amount, tax_rate, line_subtotal, line_tax, line_total)
        select 'in_bench' || lpad(i::text, 8, '0'), 0, 'Seats', 1 + i % 5, 1000000 * (1 + i % 100), (i % 3) * 50000,
               (1 + i % 5)::int8 * (1000000 * (1 + i % 100))::int8,
               round(((1 + i % 5)::int8 * (1000000 * (1 + i % 100))::int8)::numeric * ((i % 3) * 50000) / 1000000)::int8,
               (1 + i % 5)::int8 * (1000000 * (1 + i % 100))::int8
                 + round(((1 + i % 5)::int8 * (1000000 * (1 + i % 100))::int8)::numeric * ((i % 3) * 50000) / 1000000)::int8
        from generate_series(${from}::int, ${to}::int) as i`;
    });
  }
  await sql`insert into document_number_counters (team_id, environment, series, last_value) values (${teamId}, 'development', 'invoice', ${count})`;
  await sql`analyze invoices`;
  await sql`analyze invoice_lines`;
}
