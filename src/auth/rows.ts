/** Database row types of this folder (repo.ts reads and writes them). */
import type { Environment } from "../lib/tenant";
import type { KeyType } from "./kinds";

export interface SessionRow {
  id: string;
  team_id: string;
  environment: Environment;
  operator_id: string;
  member_id: string;
  roles: string[];
  member_status: string;
  expires_at: Date;
  revoked_at: Date | null;
}

export interface KeyRow {
  id: string;
  team_id: string;
  environment: Environment;
  type: KeyType;
  permissions: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
}
