import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { Badge } from "@/components/ui/badge";

type Hint = "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint";

// What each hint means said both ways, since a server may declare it either way.
const HINTS: { hint: Hint; yes: string; no: string; meaning: string }[] = [
  {
    hint: "readOnlyHint",
    yes: "Read-only",
    no: "Not read-only",
    meaning: "It does not change its environment.",
  },
  {
    hint: "destructiveHint",
    yes: "Destructive",
    no: "Not destructive",
    meaning: "Its changes may delete or overwrite.",
  },
  {
    hint: "idempotentHint",
    yes: "Idempotent",
    no: "Not idempotent",
    meaning: "Calling it again changes nothing.",
  },
  { hint: "openWorldHint", yes: "Open world", no: "Closed world", meaning: "It reaches outside systems." },
];

/** What a tool says of itself: its title and the hints its server declared, as badges. */
export function ToolAnnotations({ tool }: { tool: Pick<Tool, "name" | "title" | "annotations"> }) {
  const title = tool.title ?? tool.annotations?.title;
  const declared = HINTS.filter(({ hint }) => typeof tool.annotations?.[hint] === "boolean");
  return (
    <div className="grid gap-1.5" data-testid="tool-annotations">
      {title ? <p className="text-sm font-medium">{title}</p> : null}
      {declared.length > 0 ? (
        <ul aria-label="Annotations" className="flex flex-wrap gap-1.5">
          {declared.map(({ hint, yes, no, meaning }) => (
            <li key={hint}>
              <Badge
                className={
                  tool.annotations?.[hint] && hint === "destructiveHint" ? "border-destructive/60" : ""
                }
              >
                <span title={meaning}>{tool.annotations?.[hint] ? yes : no}</span>
              </Badge>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-xs text-muted-foreground">
          Its server declares no hints, so agents that ask before risky tools ask before this one.
        </p>
      )}
    </div>
  );
}
