import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AgentForm } from "@/components/agents/agent-form";
import { agentFormOptions, agentFormValues } from "@/components/agents/agent-page-data";
import { getDb } from "@/db/client";
import { isAdminRole } from "@/lib/auth/context";
import { requirePageContext } from "@/lib/auth/request-context";

export const metadata: Metadata = { title: "New agent" };

export default async function NewAgentPage() {
  const ctx = await requirePageContext();
  if (!isAdminRole(ctx.role)) redirect("/agents");
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold">New agent</h1>
      <AgentForm agent={agentFormValues(null)} readOnly={false} {...(await agentFormOptions(getDb(), ctx))} />
    </div>
  );
}
