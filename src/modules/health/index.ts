/** GET /health: the process is up and the database answers. No credential needed. */
import { Elysia, t } from "elysia";
import type { Sql } from "../../db/client";
import { pingDatabase } from "./repo";

type RouteDeps = { sql: Sql };

export function healthRoutes(deps: RouteDeps) {
  return new Elysia().get(
    "/health",
    async ({ set }) => {
      try {
        await pingDatabase(deps.sql);
        return { status: "ok" as const, database: "ok" as const };
      } catch {
        set.status = 503;
        return { status: "degraded" as const, database: "unreachable" as const };
      }
    },
    {
      response: {
        200: t.Object({ status: t.Literal("ok"), database: t.Literal("ok") }),
        503: t.Object({ status: t.Literal("degraded"), database: t.Literal("unreachable") }),
      },
      detail: { tags: ["Health"], summary: "Liveness and database check" },
    },
  );
}
