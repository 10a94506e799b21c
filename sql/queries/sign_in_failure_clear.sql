-- Forgets a scope's failed sign-ins (an account's, after it signs in). Returns none.
-- $1 scope
delete from sign_in_failures where scope = $1
