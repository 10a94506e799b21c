/** Request and response bodies of the two token endpoints (the spec leaves them to us; see README). */
import { t } from "elysia";
import { CompanyRef, UserRef } from "../customers/model";

export const EMBED_TTL = { min: 60, max: 900, default: 900 } as const;
export const SESSION_TTL = { min: 60, max: 86_400, default: 3_600 } as const;

export const EmbedTokenRequest = t.Object(
  {
    company: CompanyRef,
    ttlSeconds: t.Optional(t.Integer({ minimum: EMBED_TTL.min, maximum: EMBED_TTL.max, default: EMBED_TTL.default, description: "60 to 900 seconds; default 900" })),
  },
);

export const AccessTokenRequest = t.Object(
  {
    company: CompanyRef,
    user: t.Optional(UserRef),
    ttlSeconds: t.Optional(t.Integer({ minimum: SESSION_TTL.min, maximum: SESSION_TTL.max, default: SESSION_TTL.default, description: "60 to 86400 seconds; default 3600" })),
  },
);

export const TokenResponse = t.Object({
  token: t.String({ description: "Send as 'Authorization: Bearer <token>' from the browser" }),
  tokenType: t.Literal("Bearer"),
  expiresAt: t.String({ format: "date-time" }),
  expiresIn: t.Integer({ description: "Seconds until expiry" }),
  companyId: t.String(),
  userId: t.Union([t.String(), t.Null()]),
});
