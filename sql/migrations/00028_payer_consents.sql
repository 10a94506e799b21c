-- A payer's consent opens one subscription, once. The key is the consent's own one-time value (the EVM salt, the
-- Solana and Stellar nonce) per network and payer, across every team: the first activation to insert it wins, any
-- other (a replay, a second company, a racing twin) inserts nothing and is refused before anything is charged.
create table payer_consents (
  network          text not null,
  -- as the chain spells it; EVM addresses in lowercase
  payer_wallet     text not null,
  nonce            text not null check (char_length(nonce) between 1 and 66),
  team_id          text not null references teams (id),
  environment      text not null check (environment in ('development', 'production')),
  -- spent in the reservation's transaction before the subscription row is written (a replay is told as such, even for
  -- a company that has a live subscription), so no foreign key: the transaction keeps the two together
  subscription_id  text not null,
  created_at       timestamptz not null,
  primary key (network, payer_wallet, nonce)
);

-- Solana and Stellar keep one allowance per payer token account (an SPL delegate, a SAC allowance), granted to the
-- service's operator for every team. A mandate's remaining amount can equal what the chain still allows only if one
-- live subscription draws on that account: such subscriptions are marked, and one per network, token and account
-- may be live (claimed from the reservation, before the chain is asked, until canceled or failed). EVM
-- subscriptions each have their own authorization on the contract and are not marked. Rows from before stay
-- unmarked.
alter table subscriptions add column exclusive_account boolean not null default false;
create unique index subscriptions_live_per_shared_account on subscriptions (network, token_symbol, payment_account)
  where exclusive_account and status in ('INCOMPLETE', 'TRIALING', 'ACTIVE', 'PAST_DUE');
