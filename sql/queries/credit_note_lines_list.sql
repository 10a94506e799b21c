-- The lines of credit notes of the tenant, in order. Returns many.
-- $1 team_id, $2 environment, $3 credit note ids text[]
select l.*
from credit_note_lines l
join credit_notes c on c.id = l.credit_note_id
where c.team_id = $1 and c.environment = $2 and l.credit_note_id = any($3::text[])
order by l.credit_note_id, l.position
