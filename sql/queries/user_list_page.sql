-- One page of users, newest first; optional search over name, email and wallet, optional company.
-- Returns many, each with the ids of the companies the user belongs to.
-- $1 team_id, $2 environment, $3 before_seq (null: from the newest), $4 limit, $5 search pattern (null: all),
-- $6 company_id (null: all)
select u.id, u.external_id, u.idp_user_id, u.name, u.email, u.wallet_address, u.traits, u.created_at, u.last_seen_at, u.seq,
       coalesce((select array_agg(m.company_id order by m.created_at) from company_memberships m
                 where m.team_id = u.team_id and m.environment = u.environment and m.user_id = u.id), '{}') as company_ids
from users u
where u.team_id = $1 and u.environment = $2
  and ($3::int8 is null or u.seq < $3::int8)
  and ($5::text is null or u.name ilike $5::text or u.email ilike $5::text or u.wallet_address ilike $5::text)
  and ($6::text is null or exists (select 1 from company_memberships m
       where m.team_id = $1 and m.environment = $2 and m.user_id = u.id and m.company_id = $6::text))
order by u.seq desc
limit $4
