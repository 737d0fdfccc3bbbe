import type { Metadata } from "next";
import { forbidden } from "next/navigation";
import { AgentForm } from "@/components/agents/agent-form";
import { isAdminRole } from "@/lib/auth/context";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { agentFormOptions, agentFormValues } from "@/lib/chat/agent-form-data";

export const metadata: Metadata = { title: "New agent" };

export default async function NewAgentPage() {
  const { db, ctx } = await requireSignedInPage();
  if (!isAdminRole(ctx.role)) forbidden();
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold">New agent</h1>
      <AgentForm agent={agentFormValues(null)} readOnly={false} {...(await agentFormOptions(db, ctx))} />
    </div>
  );
}
