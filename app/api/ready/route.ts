import { schemaIsCurrent } from "@/lib/health/schema-current";
import { apiRoute } from "@/lib/http/api-route";
import { isDraining } from "@/lib/http/draining.mjs";
import { otherMethods } from "@/lib/http/other-methods";
import { logger } from "@/lib/logger";

export const dynamic = "force-dynamic";

const notReady = (reason: string, message: string) =>
  Response.json(
    { status: "not_ready", reason, message },
    { status: 503, headers: { "cache-control": "no-store" } },
  );

/**
 * Readiness, for load balancers: 200 while this instance should get new requests; 503 while it stops (it still
 * answers what reaches it), when the database does not answer, or before this release's migrations have run.
 */
export const GET = apiRoute("GET /api/ready", async () => {
  if (isDraining()) return notReady("draining", "This instance is stopping.");
  try {
    if (!(await schemaIsCurrent()))
      return notReady(
        "migrations_pending",
        "The database needs this release's migrations: run `npm run db:migrate`.",
      );
  } catch (error) {
    logger.warn("readiness check failed", { err: error });
    return notReady("database_unreachable", "The database does not answer.");
  }
  return Response.json({ status: "ready" }, { headers: { "cache-control": "no-store" } });
});

export const { DELETE, OPTIONS, PATCH, POST, PUT } = otherMethods("GET");
