import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { IntegrationDetail } from "@/components/integrations/integration-detail";
import { isAdminRole } from "@/lib/auth/context";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { NotFoundError } from "@/lib/errors";
import { getIntegration } from "@/lib/mcp/integrations/get-integration";
import type { IntegrationView } from "@/lib/mcp/integrations/integration-view";
import { findPreset } from "@/lib/mcp/presets";

export const metadata: Metadata = { title: "Integration" };

export default async function IntegrationPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ test?: string; oauth?: string; reason?: string }>;
}) {
  const { db, ctx } = await requireSignedInPage();
  const { id } = await params;
  let integration: IntegrationView;
  try {
    integration = await getIntegration(db, ctx, id);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
  const entry = integration.presetKey ? findPreset(integration.presetKey) : undefined;
  const query = await searchParams;
  return (
    <IntegrationDetail
      integration={integration}
      canManage={isAdminRole(ctx.role)}
      presetCredentials={entry?.credentials ?? []}
      testOnLoad={query.test === "1"}
      viewerId={ctx.userId}
      oauthOutcome={query.oauth ? { result: query.oauth, reason: query.reason } : null}
    />
  );
}
