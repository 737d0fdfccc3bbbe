import { CheckCircle2, Circle } from "lucide-react";
import Link from "next/link";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import type { GettingStarted } from "@/lib/orgs/getting-started";

const STEPS: { key: keyof GettingStarted; label: string; hint: string; href: string }[] = [
  {
    key: "connectedServer",
    label: "Connect an MCP server",
    hint: "Pick one from the catalog or enter its address.",
    href: "/integrations/new",
  },
  {
    key: "triedTool",
    label: "Try one of its tools",
    hint: "Run a tool from the integration's page to see what it answers.",
    href: "/integrations",
  },
  {
    key: "askedChat",
    label: "Ask the chat",
    hint: "The assistant uses every connected server's tools to answer.",
    href: "/chat",
  },
  {
    key: "createdKey",
    label: "Create an API key",
    hint: "For the REST API and MCP clients.",
    href: "/settings/api-keys",
  },
  {
    key: "connectedClient",
    label: "Connect a client",
    hint: "Claude Desktop, Cursor, VS Code or any MCP client, through one endpoint.",
    href: "/connect",
  },
];

/** The first hour's steps with what is done already; gone once every step is. */
export function GettingStartedChecklist({ progress }: { progress: GettingStarted }) {
  const done = STEPS.filter((step) => progress[step.key]).length;
  if (done === STEPS.length) return null;
  const next = STEPS.find((step) => !progress[step.key]);
  return (
    <section aria-labelledby="getting-started-title" data-testid="getting-started">
      <Card>
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <CardTitle id="getting-started-title">Get started</CardTitle>
          <span className="text-sm text-muted-foreground" data-testid="getting-started-count">
            {done} of {STEPS.length} done
          </span>
        </div>
        <CardDescription>From an empty organization to tools that answer everywhere.</CardDescription>
        <ol className="mt-4 grid gap-3">
          {STEPS.map((step) => {
            const complete = progress[step.key];
            return (
              <li key={step.key} className="flex items-start gap-3" data-done={complete}>
                {complete ? (
                  <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0 text-success" aria-hidden />
                ) : (
                  <Circle className="mt-0.5 h-5 w-5 shrink-0 text-muted-foreground" aria-hidden />
                )}
                <span className="grid">
                  <Link
                    href={step.href}
                    className={
                      complete
                        ? "text-sm text-muted-foreground line-through"
                        : step === next
                          ? "text-sm font-medium text-primary underline underline-offset-2"
                          : "text-sm font-medium underline underline-offset-2"
                    }
                  >
                    {step.label}
                    <span className="sr-only">{complete ? " (done)" : " (not done yet)"}</span>
                  </Link>
                  {complete ? null : <span className="text-xs text-muted-foreground">{step.hint}</span>}
                </span>
              </li>
            );
          })}
        </ol>
      </Card>
    </section>
  );
}
