-- One reservation of the tenant by its esc_ id. Returns one row or none.
-- $1 team_id, $2 environment, $3 id
select * from escrow_reservations where team_id = $1 and environment = $2 and id = $3
