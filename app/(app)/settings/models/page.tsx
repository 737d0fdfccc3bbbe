import type { Metadata } from "next";
import { forbidden } from "next/navigation";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { isAdminRole } from "@/lib/auth/context";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { agentModelName, organizationChatModels } from "@/lib/chat/chat-models";
import { endpointModels } from "@/lib/chat/endpoint-models";
import { ChatModelsForm } from "./chat-models-form";

export const metadata: Metadata = { title: "Chat models" };

/** Which models of the configured endpoint the organization's members may choose in a conversation. */
export default async function ChatModelsPage() {
  const { db, ctx } = await requireSignedInPage();
  if (!isAdminRole(ctx.role)) forbidden();
  const [endpoint, allowed] = await Promise.all([endpointModels(), organizationChatModels(db, ctx)]);
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
        <Card>
          {endpoint.listed === null ? (
            <Alert tone="info">{endpoint.reason} Type the names of the models it serves.</Alert>
          ) : null}
          <ChatModelsForm listed={endpoint.listed ?? []} allowed={allowed} />
        </Card>
      ) : (
        <Alert tone="info">
          No model endpoint is configured (<code>OPENAI_BASE_URL</code> or <code>OPENAI_API_KEY</code>): the
          chat runs in offline mode, with no models to choose.
        </Alert>
      )}
    </div>
  );
}
