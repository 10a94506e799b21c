/**
 * The endpoint-by-credential matrix, in one place. Every authenticated route names its entry here;
 * README.md shows this table and test/routes/access-matrix.test.ts checks it row by row.
 *
 * Reading a row: `kinds` are the credential kinds accepted (any other kind: 403 wrong_credential_kind).
 * `permission` applies to secret, restricted and publishable keys (a secret key without an explicit
 * list holds all). `role` applies to dashboard sessions (`admin` holds all). Legacy `api_` keys and
 * embed tokens need no permission: the kind itself is the grant, and embed tokens are confined to
 * their company by the route's handler.
 */
import { forbidden } from "../lib/errors";
import type { CredentialKind, DashboardRole, Permission, Principal } from "./kinds";

export interface AccessPolicy {
  kinds: readonly CredentialKind[];
  permission?: Permission;
  role?: DashboardRole;
}

const SERVER_KEYS = ["secret", "restricted"] as const;

export const ACCESS = {
  "POST /api-keys/tokens": { kinds: SERVER_KEYS, permission: "tokens.create" },
  "POST /access-tokens": { kinds: [...SERVER_KEYS, "legacy"], permission: "tokens.create" },
  "GET /companies": { kinds: [...SERVER_KEYS, "legacy", "dashboard"], permission: "customers.read", role: "customers:read" },
  "GET /users": { kinds: [...SERVER_KEYS, "legacy", "dashboard"], permission: "customers.read", role: "customers:read" },
  "GET /audit-log": { kinds: ["dashboard"], role: "audit:read" },
} as const satisfies Record<string, AccessPolicy>;

export type RouteKey = keyof typeof ACCESS;

/** Throws the spec's 403 when a verified principal may not use the route. */
export function authorize(policy: AccessPolicy, principal: Principal): void {
  if (!policy.kinds.includes(principal.kind)) {
    throw forbidden(`This endpoint does not accept ${principal.kind} credentials`, "wrong_credential_kind");
  }
  if (principal.kind === "dashboard") {
    if (policy.role && !principal.roles.includes("admin") && !principal.roles.includes(policy.role)) {
      throw forbidden(`Dashboard role '${policy.role}' is required`, "missing_permission");
    }
    return;
  }
  if (principal.kind === "legacy" || principal.kind === "embed") return;
  if (policy.permission && principal.permissions !== null && !principal.permissions.includes(policy.permission)) {
    throw forbidden(`Permission '${policy.permission}' is required`, "missing_permission");
  }
}
