import { pingDatabase } from "@/lib/health/ping-database";
import { apiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";
import { logger } from "@/lib/logger";
import packageJson from "@/package.json" with { type: "json" };

export const dynamic = "force-dynamic";

/** Liveness and readiness: the database answers, and which version runs. */
export const GET = apiRoute("GET /api/health", async () => {
  try {
    const { kind, latencyMs } = await pingDatabase();
    return Response.json({
      status: "ok",
      version: packageJson.version,
      database: { status: "ok", kind, latencyMs },
    });
  } catch (error) {
    logger.error("health check failed", { err: error });
    return Response.json(
      { status: "error", version: packageJson.version, database: { status: "unreachable" } },
      { status: 503 },
    );
  }
});

export const { DELETE, OPTIONS, PATCH, POST, PUT } = otherMethods("GET");
