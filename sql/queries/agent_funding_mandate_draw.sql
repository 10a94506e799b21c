-- Moves the remaining amount of a funding mandate: lowered by a dispatch (negative $2 releases a failed one's).
-- Returns nothing.
-- $1 id, $2 amount drawn (token units; negative: released), $3 now, $4 team_id, $5 environment
update agent_funding_mandates
set remaining_amount = least(authorized_amount, remaining_amount - $2::numeric), updated_at = $3
where id = $1 and team_id = $4 and environment = $5
