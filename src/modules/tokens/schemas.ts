/** Request and response bodies of the two token endpoints (the spec leaves them to us; see docs/decisions.md). */
import { t } from "elysia";
import { CompanyRef, UserRef } from "../customers/schemas";

export const EMBED_TTL = { min: 60, max: 900, default: 900 } as const;
export const SESSION_TTL = { min: 60, max: 86_400, default: 3_600 } as const;

export const EmbedTokenRequest = t.Object(
  {
    company: CompanyRef,
    ttlSeconds: t.Optional(
      t.Integer({ minimum: EMBED_TTL.min, maximum: EMBED_TTL.max, default: EMBED_TTL.default, description: "60 to 900 seconds; default 900" }),
    ),
  },
  { $id: "EmbedTokenRequest", examples: [{ company: { id: "acme" }, ttlSeconds: 900 }] },
);

export const AccessTokenRequest = t.Object(
  {
    company: CompanyRef,
    user: t.Optional(UserRef),
    ttlSeconds: t.Optional(
      t.Integer({
        minimum: SESSION_TTL.min,
        maximum: SESSION_TTL.max,
        default: SESSION_TTL.default,
        description: "60 to 86400 seconds; default 3600",
      }),
    ),
  },
  {
    $id: "AccessTokenRequest",
    examples: [{ company: { id: "acme", name: "Acme Inc." }, user: { id: "u-42", email: "ada@acme.example" }, ttlSeconds: 3600 }],
  },
);

export const TokenResponse = t.Object(
  {
    token: t.String({ description: "Send as 'Authorization: Bearer <token>' from the browser" }),
    tokenType: t.Literal("Bearer"),
    expiresAt: t.String({ format: "date-time" }),
    expiresIn: t.Integer({ description: "Seconds until expiry" }),
    companyId: t.String(),
    userId: t.Union([t.String(), t.Null()]),
  },
  {
    $id: "Token",
    examples: [
      {
        token: "be_tok_2Xb9Qe7mK1LpR4sT8vW0yZ3c",
        tokenType: "Bearer",
        expiresAt: "2026-01-15T09:45:00.000Z",
        expiresIn: 900,
        companyId: "comp_01JH5Q8T0M3V9X2Y4Z6A8B0C1D",
        userId: null,
      },
    ],
  },
);
