-- An operator by email, case-insensitively, with the password hash for sign-in. Returns one row or none.
-- $1 email
select id, email, name, password_hash, created_at
from operators
where lower(email) = lower($1)
