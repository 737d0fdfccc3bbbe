import type { Metadata } from "next";
import { ConnectClient } from "@/components/connect/connect-client";
import { isAdminRole } from "@/lib/auth/context";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { appOrigin } from "@/lib/http/app-origin";

export const metadata: Metadata = { title: "Connect a client" };

/** How to point Claude, ChatGPT, VS Code, Cursor or the MCP Inspector at this organization's gateway. */
export default async function ConnectPage() {
  const { ctx } = await requireSignedInPage();
  const origin = await appOrigin();
  return (
    <div className="grid max-w-3xl gap-6">
      <div>
        <h1 className="text-2xl font-semibold">Connect a client</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Any MCP client can use this organization&apos;s tools, resources and prompts through one endpoint:
          every integration&apos;s tools (named <code>&lt;integration&gt;_&lt;tool&gt;</code>), the built-in
          tools, the organization&apos;s capabilities, and <code>find_tools</code> and <code>call_tool</code>{" "}
          to search and run any of them.
        </p>
        <p className="mt-2 text-sm text-muted-foreground">
          To reach one integration&apos;s server alone, under its own names, use{" "}
          <code className="break-all">{origin}/api/mcp/integrations/&lt;slug&gt;</code> the same way; the slug
          is the prefix of that integration&apos;s tools.
        </p>
      </div>
      <ConnectClient endpoint={`${origin}/api/mcp`} canCreateKey={isAdminRole(ctx.role)} />
    </div>
  );
}
