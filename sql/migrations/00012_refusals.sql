-- Refusals (402 and 429 of /events and /usage/consume) no longer grow storage without bound: one caller
-- hammering a limit wrote an event row per refusal (285k rows in 90 s). Now meter_settle() stores the event
-- of a refusal only when it carries an idempotency key (its retries must replay it), and counts the others
-- here, per UTC day, so operators still see how often customers hit their limits.
create table usage_refusals (
  team_id      text not null,
  environment  text not null check (environment in ('development', 'production')),
  day          date not null, -- UTC
  source       text not null check (source in ('events', 'consume')),
  company_id   text, -- null: the use named a company that does not exist
  feature_id   text not null,
  outcome      text not null check (outcome in ('insufficient_credits', 'limit_reached', 'feature_not_enabled')),
  count        bigint not null check (count > 0),
  constraint usage_refusals_key unique nulls not distinct (team_id, environment, day, source, company_id, feature_id, outcome)
);

-- The refusals stored until now without a key are counted too; the pruner deletes them with the rest.
insert into usage_refusals (team_id, environment, day, source, company_id, feature_id, outcome, count)
select team_id, environment, (sent_at at time zone 'UTC')::date, source, company_id, feature_id, outcome, count(*)
from events
where outcome <> 'accepted' and idempotency_key is null and feature_id is not null
group by 1, 2, 3, 4, 5, 6, 7;

-- Stored refusals are kept for a retention period only (src/modules/events/retention.ts): found by age.
create index events_refused_age on events (sent_at) where outcome <> 'accepted';
