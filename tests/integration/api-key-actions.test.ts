import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiKeyAction } from "@/app/(app)/settings/api-keys/actions";
import { apiKeys } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { createCapability } from "@/lib/capabilities/store";
import { createIntegration } from "@/lib/mcp/integrations/create-integration";
import { useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

// Actions read the signed-in user through next-auth and revalidate Next's cache, both of which need Next's
// runtime: stand in for them. Everything else the actions do is real.
const session = vi.hoisted(() => ({ ctx: null as unknown }));
vi.mock("@/lib/auth/request-context", () => ({ requireSignedInUser: async () => session.ctx }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let ownIntegrationId: string;
let ownCapabilityId: string;
let foreignIntegrationId: string;

const integration = (ctx: UserContext, name: string) =>
  createIntegration(handle.db, ctx, {
    source: "custom",
    name,
    transport: "streamable-http",
    url: "http://no-such-host.invalid/mcp",
  });

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  const [owner, other] = (await registerOwners(handle.db, "Nia", "Oz")) as [UserContext, UserContext];
  a = owner;
  session.ctx = a;
  ownIntegrationId = (await integration(a, "Ours")).id;
  ownCapabilityId = (
    await createCapability(handle.db, a, {
      namespace: "ours",
      action: "run",
      description: "",
      code: "return 1;",
    })
  ).id;
  foreignIntegrationId = (await integration(other, "Theirs")).id;
});
afterAll(async () => {
  useDatabase(undefined);
  await handle?.close();
});

function form(fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields))
    for (const item of Array.isArray(value) ? value : [value]) data.append(name, item);
  return data;
}

const stored = async (name: string) =>
  (await handle.db.select().from(apiKeys).where(eq(apiKeys.name, name)))[0];

describe("the create-key action", () => {
  it("creates a key with an expiry in days and chosen integrations and capabilities", async () => {
    const answer = await createApiKeyAction(
      {},
      form({
        name: "Reports",
        expiresIn: "30",
        access: "chosen",
        integrationScope: "selected",
        integrationIds: [ownIntegrationId],
        capabilityScope: "selected",
        capabilityIds: [ownCapabilityId],
      }),
    );
    expect(answer.key).toMatch(/^sb_/);
    const row = await stored("Reports");
    expect(row?.scope).toEqual({
      integrationIds: [ownIntegrationId],
      capabilityIds: [ownCapabilityId],
      builtins: false,
    });
    const days = ((row?.expiresAt?.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it("creates a read-only knowledge key that works through a chosen date, and a plain key by default", async () => {
    const next = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    expect(
      (
        await createApiKeyAction(
          {},
          form({ name: "Wiki", expiresIn: "date", expiresOn: next, access: "knowledge" }),
        )
      ).key,
    ).toBeDefined();
    const wiki = await stored("Wiki");
    expect(wiki?.scope).toEqual({ integrationIds: [], capabilityIds: [], builtins: true });
    expect(wiki?.expiresAt?.toISOString()).toBe(
      new Date(Date.parse(`${next}T00:00:00Z`) + 86_400_000).toISOString(),
    );

    expect((await createApiKeyAction({}, form({ name: "Plain" }))).key).toBeDefined();
    expect(await stored("Plain")).toMatchObject({ scope: null, expiresAt: null });
  });

  it("refuses another organization's integration id, naming it, and creates nothing", async () => {
    const answer = await createApiKeyAction(
      {},
      form({
        name: "Sneaky",
        access: "chosen",
        integrationScope: "selected",
        integrationIds: [ownIntegrationId, foreignIntegrationId],
        builtins: "on",
      }),
    );
    expect(answer.key).toBeUndefined();
    expect(answer.error).toBe(`"${foreignIntegrationId}" is not an integration of this organization.`);
    expect(answer.fields?.["scope.integrationIds"]).toEqual([answer.error]);
    expect(answer.values).toMatchObject({
      name: "Sneaky",
      integrationIds: `${ownIntegrationId},${foreignIntegrationId}`,
    });
    expect(await stored("Sneaky")).toBeUndefined();
  });

  it("refuses an expiry or access the form does not offer, and a date left empty", async () => {
    expect((await createApiKeyAction({}, form({ name: "X", expiresIn: "7" }))).fields?.expiresIn).toEqual([
      "Choose when the key expires.",
    ]);
    expect((await createApiKeyAction({}, form({ name: "X", access: "admin" }))).fields?.access).toEqual([
      "Choose what the key may use.",
    ]);
    expect((await createApiKeyAction({}, form({ name: "X", expiresIn: "date" }))).fields?.expiresAt).toEqual([
      "Choose the expiry date.",
    ]);
    expect(
      (await createApiKeyAction({}, form({ name: "X", expiresIn: "date", expiresOn: "2001-01-01" }))).error,
    ).toBe("Choose an expiry in the future.");
    expect(await stored("X")).toBeUndefined();
  });
});
