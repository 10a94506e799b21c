-- Writes a credit note's lines, positions 0..n-1 in array order (nothing when the note is not the tenant's). Returns none.
-- $1 team_id, $2 environment, $3 credit_note_id, $4 descriptions text[], $5 amounts int8[]
insert into credit_note_lines (credit_note_id, position, description, amount)
select c.id, l.ord - 1, l.description, l.amount
from credit_notes c, unnest($4::text[], $5::int8[]) with ordinality as l(description, amount, ord)
where c.team_id = $1 and c.environment = $2 and c.id = $3
