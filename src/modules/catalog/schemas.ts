/** Feature shapes (the spec's Feature resource and the PUT body) and the rule tying entitlement kinds to feature types. */
import { t, type Static } from "elysia";
import { NonBlankText } from "../../http/non-blank-text";

export const FEATURE_TYPES = ["boolean", "event", "trait"] as const;
export type FeatureType = (typeof FEATURE_TYPES)[number];

export const ENTITLEMENT_KINDS = ["boolean", "quota", "credit", "trait"] as const;
export type EntitlementKind = (typeof ENTITLEMENT_KINDS)[number];

/** The charset of feature keys and event keys: what a track event's `name` may be. */
export const TRACK_NAME = /^[a-z0-9][a-z0-9_.:-]{0,99}$/;

/**
 * Which feature type an entitlement kind needs: a quota or a credit burn meters track events, so the
 * feature must be an `event` feature; a trait rule reads a company trait, so a `trait` feature; an
 * on/off switch fits any type.
 */
const KIND_NEEDS: Record<EntitlementKind, FeatureType | null> = { boolean: null, quota: "event", credit: "event", trait: "trait" };

export const kindFits = (kind: EntitlementKind, type: FeatureType): boolean => KIND_NEEDS[kind] === null || KIND_NEEDS[kind] === type;

const FeatureTypeSchema = t.Union([t.Literal("boolean"), t.Literal("event"), t.Literal("trait")]);

export const LinkedPlan = t.Object(
  { id: t.String(), name: t.String(), tier: t.String() },
  { $id: "LinkedPlan", examples: [{ id: "plan_01JH5Q8T0M3V9X2Y4Z6A8B0C1E", name: "Pro", tier: "pro" }] },
);

export const Feature = t.Object(
  {
    id: t.String({ description: "cflag_…" }),
    name: t.String(),
    featureKey: t.String({ description: "Stable key; a track event with this name meters the feature. Never changes." }),
    featureType: FeatureTypeSchema,
    eventKey: t.String({ description: "Second track event name for the feature; empty when none" }),
    icon: t.String(),
    description: t.String(),
    linkedPlans: t.Array(LinkedPlan, { description: "The plans that hold an entitlement for the feature (any kind, enabled or not), oldest first" }),
    createdAt: t.String({ format: "date-time" }),
  },
  {
    $id: "Feature",
    examples: [
      {
        id: "cflag_01JH5Q8T0M3V9X2Y4Z6A8B0C1G",
        name: "API calls",
        featureKey: "api-calls",
        featureType: "event",
        eventKey: "api.call",
        icon: "",
        description: "Calls to the public API",
        linkedPlans: [{ id: "plan_01JH5Q8T0M3V9X2Y4Z6A8B0C1E", name: "Pro", tier: "pro" }],
        createdAt: "2026-01-15T09:30:00.000Z",
      },
    ],
  },
);

export const FeatureUpdate = t.Object(
  {
    name: t.Optional(NonBlankText()),
    description: t.Optional(t.String({ maxLength: 2000 })),
    eventKey: t.Optional(
      t.String({
        pattern: "^$|^[a-z0-9][a-z0-9_.:-]{0,99}$",
        description: "Lowercase letters, digits, _ . : - (1-100 characters, starting with a letter or digit); empty string removes it",
      }),
    ),
    icon: t.Optional(t.String({ maxLength: 200 })),
    featureType: t.Optional(FeatureTypeSchema),
  },
  { $id: "FeatureUpdate", description: "Partial update: omitted fields keep their value", examples: [{ name: "API calls", eventKey: "api.call" }] },
);
export type FeatureUpdate = Static<typeof FeatureUpdate>;

export const FeatureParams = t.Object({ id: t.String({ minLength: 1, maxLength: 200, description: "Feature id (cflag_…)" }) });

/** The spec's Feature plus whether it is archived: what the dashboard routes answer. */
export const DashboardFeature = t.Object(
  {
    ...Feature.properties,
    archived: t.Boolean({ description: "Archived: hidden from lists by default, grants and meters nothing, history kept" }),
    archivedAt: t.Union([t.String({ format: "date-time" }), t.Null()]),
  },
  { $id: "DashboardFeature" },
);

export const IncludeArchived = {
  includeArchived: t.Optional(t.BooleanString({ description: "true also lists archived ones (default false)" })),
};

export const Removed = t.Object(
  {
    id: t.String(),
    outcome: t.Union([t.Literal("deleted"), t.Literal("archived")], { description: "archived when history or other records still refer to it" }),
  },
  { $id: "Removed" },
);
