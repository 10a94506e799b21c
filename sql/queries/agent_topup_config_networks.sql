-- The networks that have enabled top-up configurations, for the monitor's per-network ticks. Returns many.
select distinct network from agent_topup_configs where enabled
