import { Card, CardTitle } from "@/components/ui/card";
import type { DiscoveredSnapshot } from "@/lib/mcp/types";
import { FeatureExplorer } from "./feature-explorer";

/** The discovered tools (with their input schemas), resources (to preview) and prompts (to run). */
export function FeatureList({
  integrationId,
  features,
}: {
  integrationId: string;
  features: DiscoveredSnapshot;
}) {
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      <Card className="lg:col-span-3">
        <CardTitle>Tools ({features.tools.length})</CardTitle>
        <ul className="mt-3 grid gap-2" data-testid="tool-list">
          {features.tools.map((tool) => (
            <li key={tool.name}>
              <details className="rounded-md border px-3 py-2">
                <summary className="cursor-pointer text-sm">
                  <code className="font-medium">{tool.name}</code>
                  {tool.description ? (
                    <span className="text-muted-foreground"> — {tool.description.split("\n")[0]}</span>
                  ) : null}
                </summary>
                <pre className="mt-2 overflow-x-auto rounded bg-muted p-2 text-xs">
                  {JSON.stringify(tool.inputSchema, null, 2)}
                </pre>
              </details>
            </li>
          ))}
        </ul>
      </Card>
      <div className="lg:col-span-3">
        <FeatureExplorer integrationId={integrationId} features={features} />
      </div>
    </div>
  );
}
