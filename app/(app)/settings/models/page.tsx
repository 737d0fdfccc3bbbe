import type { Metadata } from "next";
import { forbidden } from "next/navigation";
import { Alert } from "@/components/ui/alert";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { isAdminRole } from "@/lib/auth/context";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { listAgents } from "@/lib/chat/agents";
import { agentModelName, organizationChatModels } from "@/lib/chat/chat-models";
import { endpointModels } from "@/lib/chat/endpoint-models";
import { organizationTextOnlyModels } from "@/lib/chat/text-only-models";
import { ChatModelsForm } from "./chat-models-form";
import { TextOnlyModelsForm } from "./text-only-models-form";

export const metadata: Metadata = { title: "Chat models" };

/** Which models of the configured endpoint the organization's members may choose in a conversation. */
export default async function ChatModelsPage() {
  const { db, ctx } = await requireSignedInPage();
  if (!isAdminRole(ctx.role)) forbidden();
  const [endpoint, allowed, textOnly, agents] = await Promise.all([
    endpointModels(),
    organizationChatModels(db, ctx),
    organizationTextOnlyModels(db, ctx),
    listAgents(db, ctx),
  ]);
  // Every model a conversation can answer with: each agent's own, the allowed ones, and any still marked.
  const usable = [
    ...new Set([...agents.map((agent) => agentModelName(agent.model)), ...allowed, ...textOnly]),
  ];
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-semibold">Chat models</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Members choose a conversation&apos;s model in its header among the ones allowed here; each
          agent&apos;s own model (<code>{agentModelName(null)}</code> unless the agent names another) is
          always offered.
        </p>
      </div>
      {endpoint.configured ? (
        <>
          <Card className="grid gap-4">
            <div>
              <CardTitle>Allowed models</CardTitle>
              <CardDescription>
                The models members may choose, besides each agent&apos;s own. An unticked model stays usable
                by the agents that name it.
              </CardDescription>
            </div>
            {endpoint.listed === null ? (
              <Alert tone="info">{endpoint.reason} Type the names of the models it serves.</Alert>
            ) : null}
            <ChatModelsForm listed={endpoint.listed ?? []} allowed={allowed} />
          </Card>
          <Card className="grid gap-4">
            <div>
              <CardTitle>Images</CardTitle>
              <CardDescription>
                Attached images go to a model as images unless it is marked text only here (a local text
                model, say): it then reads that an image was attached but not sent, and the composer warns
                before sending.
              </CardDescription>
            </div>
            <TextOnlyModelsForm models={usable} textOnly={textOnly} />
          </Card>
        </>
      ) : (
        <Alert tone="info">
          No model endpoint is configured (<code>OPENAI_BASE_URL</code> or <code>OPENAI_API_KEY</code>): the
          chat runs in offline mode, with no models to choose.
        </Alert>
      )}
    </div>
  );
}
