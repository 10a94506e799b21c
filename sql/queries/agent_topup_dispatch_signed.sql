-- Records, before the broadcast, what tells later whether a pending dispatch's send can still land: EVM the signed
-- transaction's hash and operator nonce, Solana the last valid block height of its blockhash. Returns the row, or
-- none when the dispatch is no longer pending (recovery settled it meanwhile: then nothing may be broadcast).
-- $1 id, $2 tx_hash, $3 operator_nonce, $4 last_valid_height, $5 now, $6 team_id, $7 environment
update agent_topup_dispatches
set tx_hash = $2, operator_nonce = $3::int8, last_valid_height = $4::int8, updated_at = $5
where id = $1 and team_id = $6 and environment = $7 and status = 'pending'
returning id
