-- Stores a one-time sign-in link (its token's SHA-256 only). Returns one row.
-- $1 id, $2 team_id, $3 operator_id, $4 token_hash, $5 expires_at
insert into sign_in_links (id, team_id, operator_id, token_hash, expires_at)
values ($1, $2, $3, $4, $5)
returning id, team_id, operator_id, expires_at
