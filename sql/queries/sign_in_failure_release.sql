-- Lets go of an attempt's held failures once its password was found right. Returns none.
-- $1 ids (bigint[])
delete from sign_in_failures where id = any($1::bigint[])
