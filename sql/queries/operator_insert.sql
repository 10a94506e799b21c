-- Creates an operator (a global dashboard account). Returns one row; a taken email (any case) is a unique violation.
-- $1 id, $2 email, $3 name, $4 password_hash (Argon2id PHC string)
insert into operators (id, email, name, password_hash)
values ($1, $2, $3, $4)
returning id, email, name, created_at
