-- A team by id. Returns one row or none.
-- $1 id
select id, name, created_at from teams where id = $1
