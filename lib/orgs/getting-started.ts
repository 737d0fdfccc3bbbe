import { eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { organizations } from "@/db/schema";
import { hasIntegrations } from "@/lib/mcp/repository";
import { flushUsage } from "@/lib/usage/record-usage";

/** The first hour's steps, each done or not, as the organization's own records show. */
export interface GettingStarted {
  connectedServer: boolean;
  triedTool: boolean;
  askedChat: boolean;
  createdKey: boolean;
  connectedClient: boolean;
}

/** Where the organization stands on its first steps, read in one statement (tables aliased: no name is ambiguous). */
export async function gettingStarted(db: Database, orgId: string): Promise<GettingStarted> {
  // A tool just tried on this instance may still wait to be written.
  await flushUsage(db);
  const [row] = await db
    .select({
      connectedServer: hasIntegrations(orgId),
      triedTool: sql<boolean>`exists (select 1 from usage_records u where u.organization_id = ${orgId})`,
      askedChat: sql<boolean>`exists (select 1 from chat_messages m join conversations c on c.id = m.conversation_id where c.organization_id = ${orgId} and m.role = 'user')`,
      createdKey: sql<boolean>`exists (select 1 from api_keys k where k.organization_id = ${orgId})`,
      // A client has connected once one of the organization's keys has been used.
      connectedClient: sql<boolean>`exists (select 1 from api_keys k where k.organization_id = ${orgId} and k.last_used_at is not null)`,
    })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  return {
    connectedServer: Boolean(row?.connectedServer),
    triedTool: Boolean(row?.triedTool),
    askedChat: Boolean(row?.askedChat),
    createdKey: Boolean(row?.createdKey),
    connectedClient: Boolean(row?.connectedClient),
  };
}
