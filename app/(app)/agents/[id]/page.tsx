import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { deleteAgentAction } from "@/app/(app)/agents/actions";
import { AgentForm } from "@/components/agents/agent-form";
import { DeleteWithConfirm } from "@/components/forms/delete-with-confirm";
import { Badge } from "@/components/ui/badge";
import { isAdminRole } from "@/lib/auth/context";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { agentFormOptions, agentFormValues } from "@/lib/chat/agent-form-data";
import { getAgent } from "@/lib/chat/agents";
import { NotFoundError } from "@/lib/errors";

export const metadata: Metadata = { title: "Agent" };

export default async function AgentPage({ params }: { params: Promise<{ id: string }> }) {
  const { db, ctx } = await requireSignedInPage();
  const { id } = await params;
  const agent = await getAgent(db, ctx, id).catch((error: unknown) => {
    if (error instanceof NotFoundError) notFound();
    throw error;
  });
  const admin = isAdminRole(ctx.role);
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="flex items-center gap-2 text-2xl font-semibold">
          {agent.name} {agent.isDefault ? <Badge>Default</Badge> : null}
        </h1>
        {admin && !agent.isDefault ? (
          <DeleteWithConfirm
            label="Delete agent"
            title={`Delete "${agent.name}"?`}
            description="Its conversations stay and continue with the default agent."
            action={deleteAgentAction.bind(null, agent.id)}
          />
        ) : null}
      </div>
      {admin ? null : <p className="text-sm text-muted-foreground">Only owners and admins change agents.</p>}
      <AgentForm agent={agentFormValues(agent)} readOnly={!admin} {...(await agentFormOptions(db, ctx))} />
    </div>
  );
}
