-- What the first attempts of replayed requests asked for, to tell a retry from a key reused for a
-- different request. Returns many.
-- $1 event ids
select id, name, quantity
from events
where id = any($1::text[])
