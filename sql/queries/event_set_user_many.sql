-- Sets the user of events written earlier in the same transaction: metered uses whose user was
-- upserted only once the use was accepted (src/modules/entitlements/meter-identity.ts). Returns none.
-- $1 event ids, $2 their user_ids, $3 their team_ids, $4 their environments (parallel arrays)
update events e set user_id = v.user_id
from unnest($1::text[], $2::text[], $3::text[], $4::text[]) as v (id, user_id, team_id, environment)
where e.id = v.id and e.team_id = v.team_id and e.environment = v.environment
