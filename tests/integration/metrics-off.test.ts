import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { metrics, resetMetrics } from "@/lib/metrics/metrics";

delete process.env.METRICS_TOKEN;

beforeAll(() => resetMetrics());
afterAll(() => resetMetrics());

describe("GET /api/metrics without METRICS_TOKEN", () => {
  it("answers 404, whatever the request carries, and counts nothing", async () => {
    const response = await metricsRoute(
      new Request("http://localhost/api/metrics", { headers: { authorization: "Bearer anything-at-all" } }),
      { params: Promise.resolve({}) },
    );
    expect(response.status).toBe(404);
    expect(JSON.stringify(await response.json())).toContain("METRICS_TOKEN");
    expect(metrics()).toBeUndefined();
  });
});
