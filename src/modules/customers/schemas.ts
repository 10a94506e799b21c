/** Company and user shapes: what callers send to identify them, and what the API returns. */
import { t, type Static } from "elysia";
import { NonBlankText } from "../../http/non-blank-text";

const Nullable = <S extends ReturnType<typeof t.String>>(s: S) => t.Union([s, t.Null()]);

/** How a caller names a company: any of its keys; unknown companies are created. */
export const CompanyRef = t.Object(
  {
    id: t.Optional(NonBlankText("Your id for the company (or our comp_ id)")),
    wallet: t.Optional(NonBlankText()),
    email: t.Optional(t.String({ format: "email", maxLength: 320 })),
    name: t.Optional(NonBlankText()),
    traits: t.Optional(t.Record(t.String(), t.Unknown())),
  },
  {
    $id: "CompanyRef",
    description: "At least one of id, wallet, email",
    examples: [{ id: "acme", name: "Acme Inc.", email: "billing@acme.example" }],
  },
);
export type CompanyRef = Static<typeof CompanyRef>;

export const UserRef = t.Object(
  {
    id: t.Optional(NonBlankText("Your id for the user (or our user_ id)")),
    idp_user_id: t.Optional(NonBlankText("The identity provider's user id")),
    wallet: t.Optional(NonBlankText()),
    email: t.Optional(t.String({ format: "email", maxLength: 320 })),
    name: t.Optional(NonBlankText()),
    traits: t.Optional(t.Record(t.String(), t.Unknown())),
  },
  {
    $id: "UserRef",
    description: "At least one of id, idp_user_id, wallet, email",
    examples: [{ id: "u-42", email: "ada@acme.example", name: "Ada" }],
  },
);
export type UserRef = Static<typeof UserRef>;

/** The spec types these Company fields as plain strings (where other records say "string or null"): unset is "". */
const Unset = (description: string) => t.String({ description: `${description}; empty when unset` });

export const Company = t.Object(
  {
    id: t.String({ description: "comp_…" }),
    name: Unset("Display name"),
    walletAddress: Unset("Wallet address"),
    email: Unset("Billing email"),
    externalId: Unset("Your id for the company"),
    logoUrl: Unset("Logo URL"),
    traits: t.Record(t.String(), t.Unknown()),
    activePlanId: Unset("The plan the company is on"),
    activeAddOnIds: t.Array(t.String()),
    billingAnchor: t.Union([t.String({ format: "date-time" }), t.Null()], {
      description: "Quota periods reset on this instant; set when the company first gets a plan, then never moved. Null until then.",
    }),
    createdAt: t.String({ format: "date-time" }),
    lastSeenAt: t.String({ format: "date-time" }),
  },
  {
    $id: "Company",
    examples: [
      {
        id: "comp_01JH5Q8T0M3V9X2Y4Z6A8B0C1D",
        name: "Acme Inc.",
        walletAddress: "",
        email: "billing@acme.example",
        externalId: "acme",
        logoUrl: "",
        traits: { seats: 12 },
        activePlanId: "plan_01JH5Q8T0M3V9X2Y4Z6A8B0C1E",
        activeAddOnIds: [],
        billingAnchor: "2026-01-15T09:30:00.000Z",
        createdAt: "2026-01-15T09:30:00.000Z",
        lastSeenAt: "2026-02-01T12:00:00.000Z",
      },
    ],
  },
);

/** PATCH /companies/{id}. Every field is optional; an empty body changes nothing. */
export const CompanyPatch = t.Object(
  {
    name: t.Optional(NonBlankText()),
    traits: t.Optional(
      t.Record(t.String({ minLength: 1, maxLength: 200 }), t.Unknown(), {
        description: "Merged into the company's traits key by key; a key set to null is removed",
      }),
    ),
    activePlanId: t.Optional(
      t.Union([t.String({ maxLength: 200 }), t.Null()], {
        description: 'A plan of the team and environment; null (or "", as the company reads when on no plan) takes the company off its plan',
      }),
    ),
    activeAddOnIds: t.Optional(
      t.Array(t.String({ minLength: 1, maxLength: 200 }), {
        maxItems: 100,
        uniqueItems: true,
        description: "Plan ids of the team and environment; replaces the list",
      }),
    ),
  },
  { $id: "CompanyUpdate", examples: [{ name: "Acme Inc.", traits: { seats: 20, trial: null }, activePlanId: "plan_01JH5Q8T0M3V9X2Y4Z6A8B0C1E" }] },
);
export type CompanyPatch = Static<typeof CompanyPatch>;

export const User = t.Object(
  {
    id: t.String({ description: "user_…" }),
    name: Nullable(t.String()),
    email: Nullable(t.String()),
    walletAddress: Nullable(t.String()),
    externalId: Nullable(t.String()),
    idpUserId: Nullable(t.String()),
    traits: t.Record(t.String(), t.Unknown()),
    companyIds: t.Array(t.String()),
    createdAt: t.String({ format: "date-time" }),
    lastSeenAt: t.String({ format: "date-time" }),
  },
  {
    $id: "User",
    examples: [
      {
        id: "user_01JH5Q8T0M3V9X2Y4Z6A8B0C1F",
        name: "Ada",
        email: "ada@acme.example",
        walletAddress: null,
        externalId: "u-42",
        idpUserId: null,
        traits: {},
        companyIds: ["comp_01JH5Q8T0M3V9X2Y4Z6A8B0C1D"],
        createdAt: "2026-01-15T09:30:00.000Z",
        lastSeenAt: "2026-02-01T12:00:00.000Z",
      },
    ],
  },
);
