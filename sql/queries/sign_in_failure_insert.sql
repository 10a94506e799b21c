-- Records one failed sign-in (or holds one for an attempt in progress) under each scope, and deletes those
-- scopes' failures older than the window. Returns the new rows' ids.
-- $1 scopes (text[]), $2 failed_at, $3 window start (older rows are deleted)
with pruned as (
  delete from sign_in_failures where scope = any($1) and failed_at <= $3
)
insert into sign_in_failures (scope, failed_at)
select unnest($1::text[]), $2
returning id
