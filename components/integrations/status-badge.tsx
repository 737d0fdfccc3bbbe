import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/cn";

const styles = {
  connected: { label: "Connected", className: "border-success/40 bg-success/10 text-success" },
  failing: { label: "Failing", className: "border-destructive/40 bg-destructive/10 text-destructive" },
  disabled: { label: "Disabled", className: "bg-muted text-muted-foreground" },
  unknown: { label: "Not checked yet", className: "text-muted-foreground" },
} as const;

export function StatusBadge({ status }: { status: keyof typeof styles }) {
  const style = styles[status];
  return (
    <Badge className={cn(style.className)}>
      <span data-testid="integration-status">{style.label}</span>
    </Badge>
  );
}
