-- A transaction pays one checkout session (the PAID index of 00003), but payments were unique only per
-- transfer: (network, tx_hash, transfer_index). One transaction holding two qualifying transfers, each
-- the first for a different session (two recipients, or two payers), inserted a second payment, then
-- failed on the PAID index: a generic 409 on submit, and the session left CONFIRMING, verified again by
-- the sweeper every few seconds for ever. The replay guard now has the same key as the rule, so the
-- second session is told payment_replayed and reopened, as for a plain replay. (No existing data can
-- break it: a payment is only ever committed together with its session's PAID status.)
alter table payments drop constraint payments_network_tx_hash_transfer_index_key;
alter table payments add constraint payments_network_tx_hash_key unique (network, tx_hash);
