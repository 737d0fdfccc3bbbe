import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metrics, resetMetrics } from "@/lib/metrics/metrics";

const dashboard = JSON.parse(readFileSync("ops/grafana/switchboard.json", "utf8")) as {
  panels: { title: string; targets: { expr: string }[] }[];
};

beforeAll(() => {
  process.env.METRICS_TOKEN = "a-token-for-this-test";
  resetMetrics();
});
afterAll(() => {
  delete process.env.METRICS_TOKEN;
  resetMetrics();
});

describe("the Grafana dashboard", () => {
  it("asks only for metrics the app exports (histograms by their _bucket, _sum and _count series)", async () => {
    const registry = metrics()?.registry;
    expect(registry).toBeDefined();
    const exported = new Set<string>();
    for (const metric of await registry!.getMetricsAsJSON()) {
      exported.add(metric.name);
      if (String(metric.type) === "histogram")
        for (const suffix of ["_bucket", "_sum", "_count"]) exported.add(`${metric.name}${suffix}`);
    }
    const asked = dashboard.panels.flatMap((panel) =>
      panel.targets.flatMap((target) => target.expr.match(/switchboard_[a-z0-9_]+/g) ?? []),
    );
    expect(asked.length).toBeGreaterThan(10);
    expect(asked.filter((name) => !exported.has(name))).toEqual([]);
  });
});
