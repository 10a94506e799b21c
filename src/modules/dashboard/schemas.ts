/** Request and response models of the dashboard routes (`{data}` envelopes, as the spec's newer routes). */
import { t } from "elysia";
import { DASHBOARD_ROLES, PERMISSIONS } from "../../auth/kinds";
import { ENVIRONMENTS } from "../../lib/tenant";
import { NonBlankText } from "../../http/non-blank-text";

const Role = t.String({ minLength: 1, maxLength: 50, description: `One of: ${DASHBOARD_ROLES.join(", ")}` });
const Roles = t.Array(Role, { minItems: 1, maxItems: DASHBOARD_ROLES.length, description: "At least one role; owner and admin hold every role" });
const Email = t.String({ minLength: 3, maxLength: 254, format: "email" });
// Only the length is checked here; 12 to 256 characters is checked where a password is set.
const Password = t.String({ minLength: 1, maxLength: 256, description: "12 to 256 characters when set" });
const Environment = t.Union([t.Literal(ENVIRONMENTS[0]), t.Literal(ENVIRONMENTS[1])], { description: "The team's workspace environment" });
const Time = t.String({ format: "date-time" });

export const SignInRequest = t.Object(
  {
    email: Email,
    password: Password,
    teamId: t.Optional(t.String({ minLength: 1, maxLength: 100, description: "Default: the operator's oldest membership" })),
  },
  { $id: "DashboardSignIn", examples: [{ email: "ada@example.com", password: "correct horse battery staple" }] },
);
export const LinkSignInRequest = t.Object(
  { token: t.String({ minLength: 1, maxLength: 200, description: "The dlink_… token of a link printed by the CLI's sign-in-link" }) },
  { $id: "DashboardLinkSignIn", examples: [{ token: "dlink_7XbQ2m9rK4pW8sT1vY6zA3cE5gH0jL2nP4qR6tV8xZ1" }] },
);
export const AcceptRequest = t.Object(
  {
    token: t.String({ minLength: 1, maxLength: 200, description: "The dinv_… invitation token" }),
    name: t.String({ minLength: 1, maxLength: 200, description: "Used when the email has no account yet" }),
    password: Password,
  },
  {
    $id: "DashboardInvitationAccept",
    examples: [{ token: "dinv_7XbQ2m9rK4pW8sT1vY6zA3cE5gH0jL2nP4qR6tV8xZ1", name: "Ada", password: "correct horse battery staple" }],
  },
);
export const EnvironmentRequest = t.Object(
  { environment: Environment },
  { $id: "DashboardEnvironmentSwitch", examples: [{ environment: "production" }] },
);

const sessionFields = {
  id: t.String(),
  operator: t.Object({ id: t.String(), email: t.String(), name: t.String() }),
  team: t.Object({ id: t.String(), name: t.String() }),
  memberId: t.String(),
  environment: Environment,
  roles: t.Array(t.String()),
  expiresAt: Time,
};
const sessionExample = {
  id: "dsess_01JH5Q8T0M3V9X2Y4Z6A8B0C1P",
  operator: { id: "op_01JH5Q8T0M3V9X2Y4Z6A8B0C1Q", email: "ada@example.com", name: "Ada" },
  team: { id: "team_01JH5Q8T0M3V9X2Y4Z6A8B0C1R", name: "Acme" },
  memberId: "mem_01JH5Q8T0M3V9X2Y4Z6A8B0C1S",
  environment: "development",
  roles: ["owner"],
  expiresAt: "2026-01-15T21:30:00.000Z",
};
export const DashboardSession = t.Object(sessionFields, { $id: "DashboardSession", examples: [sessionExample] });
export const SignedInSession = t.Object(
  {
    ...sessionFields,
    csrfToken: t.String({ description: "Send as X-CSRF-Token on every cookie-authenticated write; GET /dashboard/session repeats it" }),
  },
  { $id: "DashboardSignedIn", examples: [{ ...sessionExample, csrfToken: "3fQ9xL2mV8pR1sT6wY0zB4cE7gJ5kN3qU9vX2aD6hM1" }] },
);

export const Member = t.Object(
  { id: t.String(), operatorId: t.String(), email: t.String(), name: t.String(), roles: t.Array(t.String()), createdAt: Time },
  {
    $id: "DashboardMember",
    examples: [
      {
        id: "mem_01JH5Q8T0M3V9X2Y4Z6A8B0C1S",
        operatorId: "op_01JH5Q8T0M3V9X2Y4Z6A8B0C1Q",
        email: "ada@example.com",
        name: "Ada",
        roles: ["catalog:read", "catalog:write"],
        createdAt: "2026-01-15T09:30:00.000Z",
      },
    ],
  },
);
export const Invitation = t.Object(
  {
    id: t.String(),
    email: t.String(),
    roles: t.Array(t.String()),
    invitedBy: t.String({ description: "Operator id, or cli" }),
    expiresAt: Time,
    createdAt: Time,
  },
  {
    $id: "DashboardInvitation",
    examples: [
      {
        id: "inv_01JH5Q8T0M3V9X2Y4Z6A8B0C1T",
        email: "grace@example.com",
        roles: ["billing:read"],
        invitedBy: "op_01JH5Q8T0M3V9X2Y4Z6A8B0C1Q",
        expiresAt: "2026-01-22T09:30:00.000Z",
        createdAt: "2026-01-15T09:30:00.000Z",
      },
    ],
  },
);
export const InviteRequest = t.Object(
  { email: Email, roles: Roles },
  { $id: "DashboardInvite", examples: [{ email: "grace@example.com", roles: ["billing:read"] }] },
);
export const InviteResponse = t.Object({
  invitation: Invitation,
  token: t.String({ description: "The one-time dinv_… token, shown only here; valid 7 days" }),
  acceptUrl: t.String({
    description:
      "The dashboard's page that accepts it, the token in the fragment (never sent to a server): `<PUBLIC_BASE_URL or the origin the caller reached>/dashboard/invitations/accept#token=dinv_…`. A bearer link as the token is: shown only here",
  }),
});
export const RolesRequest = t.Object({ roles: Roles }, { $id: "DashboardMemberRoles", examples: [{ roles: ["catalog:read", "catalog:write"] }] });

const keyFields = {
  id: t.String(),
  name: t.String(),
  prefix: t.String({ description: "The first 16 characters of the key" }),
  description: t.Union([t.String(), t.Null()]),
  type: t.Union([t.Literal("SECRET"), t.Literal("RESTRICTED"), t.Literal("PUBLISHABLE"), t.Literal("LEGACY")]),
  permissions: t.Array(t.String()),
  environmentMode: t.Union([t.Literal("DEVELOPMENT"), t.Literal("PRODUCTION")]),
  expiresAt: t.Union([Time, t.Null()]),
  revokedAt: t.Union([Time, t.Null()]),
  lastUsedAt: t.Union([Time, t.Null()]),
  createdAt: Time,
};
const keyExample = {
  id: "key_01JH5Q8T0M3V9X2Y4Z6A8B0C1M",
  name: "Backend",
  prefix: "sk_test_EXAMPLE0",
  description: null,
  type: "SECRET",
  permissions: [],
  environmentMode: "DEVELOPMENT",
  expiresAt: null,
  revokedAt: null,
  lastUsedAt: null,
  createdAt: "2026-01-15T09:30:00.000Z",
};
export const ApiKey = t.Object(keyFields, { $id: "ApiKey", examples: [keyExample] });
export const CreatedApiKey = t.Object(
  { ...keyFields, key: t.String({ description: "The raw key, shown only in this response" }) },
  { $id: "CreatedApiKey", examples: [{ ...keyExample, key: "sk_test_EXAMPLE0-not-a-real-key-shown-once-only" }] },
);
export const ApiKeyCreate = t.Object(
  {
    name: NonBlankText(),
    type: t.Union([t.Literal("secret"), t.Literal("restricted"), t.Literal("publishable"), t.Literal("legacy")]),
    permissions: t.Optional(
      t.Array(t.String({ minLength: 1, maxLength: 50 }), {
        maxItems: PERMISSIONS.length,
        description: `From: ${PERMISSIONS.join(", ")}. Restricted keys need one; publishable keys take only client-safe ones (default entitlements.read)`,
      }),
    ),
    expiresAt: t.Optional(t.String({ format: "date-time", description: "In the future; none: never expires" })),
    description: t.Optional(t.String({ maxLength: 1000 })),
  },
  { $id: "ApiKeyCreate", examples: [{ name: "Backend", type: "restricted", permissions: ["entitlements.read", "usage.consume"] }] },
);
export const IdParams = t.Object({ id: t.String({ minLength: 1, maxLength: 100 }) });
export const Ok = t.Object({ ok: t.Literal(true) });

export const OperatorTeam = t.Object(
  {
    id: t.String(),
    name: t.String(),
    memberId: t.String({ description: "The operator's membership of this team" }),
    roles: t.Array(t.String()),
    current: t.Boolean({ description: "The team of the session that asked" }),
    joinedAt: Time,
  },
  {
    $id: "DashboardOperatorTeam",
    examples: [
      {
        id: "team_01JH5Q8T0M3V9X2Y4Z6A8B0C1R",
        name: "Acme",
        memberId: "mem_01JH5Q8T0M3V9X2Y4Z6A8B0C1S",
        roles: ["owner"],
        current: true,
        joinedAt: "2026-01-15T09:30:00.000Z",
      },
    ],
  },
);
