-- Spends a sign-in link: once, before it expires. The token's hash names the team. Returns one row or none.
-- $1 token_hash, $2 now
update sign_in_links
set used_at = $2
where token_hash = $1 and used_at is null and expires_at > $2
returning id, team_id, operator_id
