import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/cn";
import type { IntegrationView } from "@/lib/mcp/integrations/integration-view";

const styles = {
  healthy: { label: "Healthy", className: "border-success/40 bg-success/10 text-success" },
  degraded: { label: "Degraded", className: "border-warning/50 bg-warning/10 text-warning-text" },
  failing: { label: "Failing", className: "border-destructive/40 bg-destructive/10 text-destructive" },
  recovering: { label: "Recovering", className: "border-warning/50 bg-warning/10 text-warning-text" },
  disabled: { label: "Disabled", className: "bg-muted text-muted-foreground" },
  unknown: { label: "Not checked yet", className: "text-muted-foreground" },
} as const;

/** Which badge an integration gets: disabled, else its state from calls and checks, else its last discovery's. */
function badgeOf({ status, state }: Pick<IntegrationView, "status" | "state">): keyof typeof styles {
  if (status === "disabled") return "disabled";
  if (state) return state.state;
  return status === "connected" ? "healthy" : status;
}

export function StatusBadge({ integration }: { integration: Pick<IntegrationView, "status" | "state"> }) {
  const style = styles[badgeOf(integration)];
  return (
    <Badge className={cn(style.className)}>
      <span data-testid="integration-status">{style.label}</span>
    </Badge>
  );
}

export const stateLabel = (state: keyof typeof styles) => styles[state].label;
