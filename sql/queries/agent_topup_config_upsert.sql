-- Creates the tenant's top-up configuration of a wallet on a network, or updates it: a second call replaces its
-- amounts and token and enables it. It re-arms only a configuration that was disabled or whose terms (threshold,
-- amount, token) changed: an integrator that sends the same configuration on every start must not get one top-up
-- per call. `created` tells a new row from an updated one. Returns one row.
-- $1 id (used only when created), $2 team_id, $3 environment, $4 network, $5 token_symbol, $6 target_wallet,
-- $7 min_balance_threshold, $8 topup_amount, $9 now
insert into agent_topup_configs as c (id, team_id, environment, network, token_symbol, target_wallet, min_balance_threshold, topup_amount,
  enabled, armed, created_at, updated_at)
values ($1, $2, $3, $4, $5, $6, $7::numeric, $8::numeric, true, true, $9, $9)
on conflict (team_id, environment, network, target_wallet) do update
  set token_symbol = excluded.token_symbol,
      min_balance_threshold = excluded.min_balance_threshold,
      topup_amount = excluded.topup_amount,
      enabled = true,
      armed = case when c.enabled and (c.token_symbol, c.min_balance_threshold, c.topup_amount)
                        = (excluded.token_symbol, excluded.min_balance_threshold, excluded.topup_amount)
                   then c.armed else true end,
      rearm_at = case when c.enabled and (c.token_symbol, c.min_balance_threshold, c.topup_amount)
                           = (excluded.token_symbol, excluded.min_balance_threshold, excluded.topup_amount)
                      then c.rearm_at end,
      refusals = case when c.enabled and (c.token_symbol, c.min_balance_threshold, c.topup_amount)
                           = (excluded.token_symbol, excluded.min_balance_threshold, excluded.topup_amount)
                      then c.refusals else 0 end,
      updated_at = excluded.updated_at
returning id, team_id, environment, network, token_symbol, target_wallet, min_balance_threshold::text, topup_amount::text, enabled, armed,
  crossing, created_at, updated_at, seq, (xmax = 0) as created
