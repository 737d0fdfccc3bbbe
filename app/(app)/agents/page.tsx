import { Bot, MessageSquarePlus, Plus } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { newConversationAction } from "@/app/(app)/chat/actions";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { isAdminRole } from "@/lib/auth/context";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { listCapabilities } from "@/lib/capabilities/store";
import { capabilityToolName } from "@/lib/capabilities/tool-name";
import { listAgents } from "@/lib/chat/agents";
import { type ToolApprovalPolicy, toolApprovalSummary } from "@/lib/chat/tool-approval-schema";
import { getEnv } from "@/lib/env";
import { listIntegrationsForOrg } from "@/lib/mcp/repository";

export const metadata: Metadata = { title: "Agents" };

function approvalBadge(policy: ToolApprovalPolicy) {
  const summary = toolApprovalSummary[policy];
  return summary ? <Badge>{`${summary.charAt(0).toUpperCase()}${summary.slice(1)}`}</Badge> : null;
}

export default async function AgentsPage() {
  const { db, ctx } = await requireSignedInPage();
  const [agents, integrations, capabilities] = await Promise.all([
    listAgents(db, ctx),
    listIntegrationsForOrg(db, ctx.orgId),
    listCapabilities(db, ctx.orgId),
  ]);
  const names = new Map(integrations.map((i) => [i.id, i.name]));
  const capabilityNames = new Map(capabilities.map((c) => [c.id, capabilityToolName(c.namespace, c.action)]));
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Agents</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            Each agent has its instructions, model, integrations, capabilities and built-in tools. Everyone in
            the organization chats with them; owners and admins change them.
          </p>
        </div>
        {isAdminRole(ctx.role) ? (
          <Link href="/agents/new" className={buttonClasses()}>
            <Plus className="h-4 w-4" aria-hidden /> New agent
          </Link>
        ) : null}
      </div>
      <Card className="p-0">
        <ul className="divide-y" aria-label="Agents">
          {agents.map((agent) => (
            <li
              key={agent.id}
              className="flex flex-wrap items-center gap-3 px-5 py-3"
              data-testid="agent-row"
            >
              <Bot className="h-5 w-5 shrink-0 text-muted-foreground" aria-hidden />
              <div className="min-w-0 flex-1">
                <p className="flex items-center gap-2 text-sm font-medium">
                  <Link href={`/agents/${agent.id}`} className="hover:underline">
                    {agent.name}
                  </Link>
                  {agent.isDefault ? <Badge>Default</Badge> : null}
                  {approvalBadge(agent.toolApproval)}
                </p>
                <p className="truncate text-xs text-muted-foreground">
                  {agent.model ?? `${getEnv().CHAT_MODEL} (default)`} ·{" "}
                  {agent.mcpIntegrationIds === null
                    ? "all enabled integrations"
                    : agent.mcpIntegrationIds.length === 0
                      ? "no integrations"
                      : agent.mcpIntegrationIds
                          .map((id) => names.get(id) ?? "removed integration")
                          .join(", ")}{" "}
                  ·{" "}
                  {agent.capabilityIds === null
                    ? "all capabilities"
                    : agent.capabilityIds.length === 0
                      ? "no capabilities"
                      : agent.capabilityIds
                          .map((id) => capabilityNames.get(id) ?? "removed capability")
                          .join(", ")}{" "}
                  · {agent.builtinTools.length ? agent.builtinTools.join(", ") : "no built-in tools"}
                </p>
              </div>
              <form action={newConversationAction}>
                <input type="hidden" name="agentId" value={agent.id} />
                <Button type="submit" variant="secondary" size="sm" aria-label={`Chat with ${agent.name}`}>
                  <MessageSquarePlus className="h-4 w-4" aria-hidden /> Chat
                </Button>
              </form>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}
