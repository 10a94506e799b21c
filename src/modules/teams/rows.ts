/** The teams domain's database rows, as its statements return them. */
import type { KeyType } from "../../auth/kinds";
import type { Environment } from "../../lib/tenant";

export interface InvitationRow {
  id: string;
  team_id: string;
  email: string;
  roles: string[];
  invited_by: string;
  expires_at: Date;
  created_at: Date;
}

export interface MemberRow {
  id: string;
  operator_id: string;
  email: string;
  name: string;
  roles: string[];
  status: string;
  created_at: Date;
}

/** An operator's membership of a team, as sign-in finds it. */
export interface MembershipRow {
  id: string;
  team_id: string;
  roles: string[];
}

export interface OperatorRow {
  id: string;
  email: string;
  name: string;
  created_at: Date;
}

export interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  description: string | null;
  type: KeyType;
  permissions: string[];
  environment: Environment;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
}

export interface SessionViewRow {
  id: string;
  environment: Environment;
  expires_at: Date;
  member_id: string;
  roles: string[];
  team_id: string;
  team_name: string;
  operator_id: string;
  email: string;
  name: string;
}
