-- Verified zkTLS proofs (docs/proofs.md#zktls-proofs). Stored only once verified; the claim's identifier is
-- unique across every team and environment: one claim proves one thing once, a second submission anywhere is a
-- replay (409), whoever sends it.
create table zktls_proofs (
  id           text primary key,
  team_id      text not null references teams (id),
  environment  text not null check (environment in ('development', 'production')),
  -- our comp_ id when the submitter named a company of the tenant; null: the proof is the tenant's alone
  company_id   text,
  provider     text not null check (char_length(provider) between 1 and 200),
  -- 0x + 64 hex, lowercase
  identifier   text not null unique check (identifier ~ '^0x[0-9a-f]{64}$'),
  -- the claim's owner address, lowercase
  owner        text not null,
  claimed_at   timestamptz not null,
  epoch        integer not null,
  parameters   text not null,
  context      text not null,
  -- the pinned attestors that signed (checksummed addresses)
  signers      text[] not null,
  created_at   timestamptz not null,
  seq          bigint generated always as identity,
  foreign key (company_id) references companies (id)
);

create index zktls_proofs_page on zktls_proofs (team_id, environment, seq desc);
