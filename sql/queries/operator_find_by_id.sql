-- An operator by id (never the password hash). Returns one row or none.
-- $1 id
select id, email, name, created_at
from operators
where id = $1
