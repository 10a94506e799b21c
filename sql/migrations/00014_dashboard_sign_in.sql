-- Dashboard sign-in (issue 19 part 1): operators (global accounts), their memberships of teams with
-- roles, invitations, one-time sign-in links, and the failed sign-ins the throttle counts.
-- Operators, memberships and invitations are team-level, not per environment: a member sees both of the
-- team's environments and switches between them in the session.

create table operators (
  id             text primary key,
  email          text not null,
  name           text not null,
  password_hash  text not null,                 -- Argon2id (PHC string from Bun.password); never the password
  created_at     timestamptz not null default now()
);
create unique index operators_email on operators (lower(email));

create table team_members (
  id           text primary key,
  team_id      text not null references teams (id),
  operator_id  text not null references operators (id),
  roles        text[] not null check (cardinality(roles) > 0),
  status       text not null default 'active' check (status in ('active', 'removed')),
  created_at   timestamptz not null default now(),
  removed_at   timestamptz
);
-- One active membership per operator and team; a removed member may be invited again.
create unique index team_members_active on team_members (team_id, operator_id) where status = 'active';

create table team_invitations (
  id           text primary key,
  team_id      text not null references teams (id),
  email        text not null,
  roles        text[] not null check (cardinality(roles) > 0),
  token_hash   text not null unique,            -- SHA-256 hex of the one-time token
  invited_by   text not null,                   -- operator id, or "cli"
  expires_at   timestamptz not null,
  accepted_at  timestamptz,
  created_at   timestamptz not null default now()
);
create index team_invitations_team on team_invitations (team_id, created_at desc);

create table sign_in_links (
  id           text primary key,
  team_id      text not null references teams (id),
  operator_id  text not null references operators (id),
  token_hash   text not null unique,
  expires_at   timestamptz not null,
  used_at      timestamptz,
  created_at   timestamptz not null default now()
);

-- One row per failed sign-in, by scope: `account:<lower(email)>` and `address:<client address>`.
-- Shared by every instance; rows older than the window are deleted as new failures are recorded. A
-- sign-in in progress holds its rows as a failure until its password is found right (then they go).
create table sign_in_failures (
  id         bigint generated always as identity primary key,
  scope      text not null,
  failed_at  timestamptz not null
);
create index sign_in_failures_scope on sign_in_failures (scope, failed_at);

-- Sessions now belong to a member (roles are read from the membership on every resolve). Sessions made before this migration have no member: they are revoked.
alter table dashboard_sessions
  add column operator_id text references operators (id),
  add column member_id text references team_members (id),
  alter column roles drop not null;
update dashboard_sessions set revoked_at = now() where revoked_at is null;
create index dashboard_sessions_member on dashboard_sessions (member_id) where revoked_at is null;
