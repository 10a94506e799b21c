-- Creates a team. Returns one row.
-- $1 id, $2 name
insert into teams (id, name) values ($1, $2)
returning id, name, created_at
