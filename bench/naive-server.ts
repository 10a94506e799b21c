/**
 * The "naive design" we report the batched metering against: POST /api/v1/events meters each event in
 * ONE TRANSACTION PER REQUEST, done correctly. begin; bump the company's counter for the period with an
 * upsert that locks the row and returns the new total; refuse (roll back) past the limit; insert the
 * event row; commit; reply. Same pool size as the real server (10), same kind of body validation.
 * Its tables carry a `bench_naive_` prefix and are recreated at start, so it never touches ours.
 *   DATABASE_URL=postgres://… NAIVE_KEY=api_… bun bench/naive-server.ts PORT
 */
import { Elysia, t } from "elysia";
import postgres from "postgres";

const port = Number(Bun.argv[2] ?? 3902);
const key = process.env.NAIVE_KEY ?? "";
const url = process.env.DATABASE_URL;
if (!url || !key) throw new Error("DATABASE_URL and NAIVE_KEY are required");
// The entitlement, as a cached plan would hold it: a monthly quota.
const LIMIT = 1_000_000_000_000n;

const sql = postgres(url, { max: 10, types: { bigint: postgres.BigInt }, onnotice: () => {} });
await sql`drop table if exists bench_naive_events, bench_naive_counters`;
await sql`create table bench_naive_counters (
  company_id text not null, feature text not null, period_start timestamptz not null,
  used bigint not null, primary key (company_id, feature, period_start))`;
await sql`create table bench_naive_events (
  id bigint generated always as identity primary key, company_id text not null, feature text not null,
  quantity bigint not null, created_at timestamptz not null default now())`;

const monthStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
// Thrown inside the transaction so that postgres.js rolls it back: a refused event leaves no trace.
class LimitReached extends Error {}

const app = new Elysia()
  .get("/api/v1/health", () => ({ status: "ok" }))
  .post(
    "/api/v1/events",
    async ({ body, headers, set }) => {
      if (headers.authorization !== `Bearer ${key}`) {
        set.status = 401;
        return { error: "Invalid credentials", code: "invalid_credentials" };
      }
      const company = body.company.id;
      const accepted = await sql
        .begin(async (tx) => {
          const [row] = await tx<{ used: bigint }[]>`
        insert into bench_naive_counters (company_id, feature, period_start, used)
        values (${company}, ${body.name}, ${monthStart(new Date())}, 1)
        on conflict (company_id, feature, period_start) do update set used = bench_naive_counters.used + 1
        returning used`;
          if (row!.used > LIMIT) throw new LimitReached();
          await tx`insert into bench_naive_events (company_id, feature, quantity) values (${company}, ${body.name}, 1)`;
          return true;
        })
        .catch((error: unknown) => {
          if (error instanceof LimitReached) return false;
          throw error;
        });
      if (!accepted) {
        set.status = 429;
        return { error: "Limit reached", code: "limit_reached" };
      }
      return { ok: true };
    },
    {
      body: t.Object({
        event_type: t.Literal("track"),
        name: t.String({ minLength: 1, maxLength: 200 }),
        company: t.Object({ id: t.String({ minLength: 1, maxLength: 200 }) }),
      }),
    },
  );

const server = Bun.serve({ port, hostname: "127.0.0.1", fetch: (request) => app.handle(request) });
process.on("SIGTERM", async () => {
  await server.stop(false);
  await sql.end({ timeout: 5 });
  process.exit(0);
});
console.log(`naive metering server on ${port}`);
