import { createHash, timingSafeEqual } from "node:crypto";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { apiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";
import { metrics } from "@/lib/metrics/metrics";

export const dynamic = "force-dynamic";

// Hashed first, so the comparison takes the same time whatever the lengths.
const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * This instance's metrics in Prometheus's text format, for a scraper holding METRICS_TOKEN. Without the setting
 * the endpoint does not exist (404), and nothing is counted.
 */
export const GET = apiRoute("GET /api/metrics", async (request) => {
  const token = getEnv().METRICS_TOKEN;
  const m = metrics();
  if (!token || !m)
    throw new AppError("not_found:metrics", "Metrics are off: set METRICS_TOKEN to turn them on.");
  const given = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (!given || !timingSafeEqual(digest(given), digest(token)))
    throw new AppError(
      "unauthorized:metrics",
      "Send the metrics token as `Authorization: Bearer <METRICS_TOKEN>`.",
      { headers: { "WWW-Authenticate": 'Bearer realm="switchboard-metrics"' } },
    );
  return new Response(await m.registry.metrics(), {
    headers: { "Content-Type": m.registry.contentType, "Cache-Control": "no-store" },
  });
});

export const { DELETE, OPTIONS, PATCH, POST, PUT } = otherMethods("GET");
