import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys/api-keys";
import type { UserContext } from "@/lib/auth/context";
import { setRecordToolPayloads } from "@/lib/orgs/organizations";
import { recordUsage } from "@/lib/usage/record-usage";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";
import { usageRecordsOf } from "./usage-records";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
beforeAll(async () => {
  handle = await createTestDatabase();
  [a] = (await registerOwners(handle.db, "Kay")) as [UserContext];
});
afterAll(() => handle?.close());

describe("recorded tool payloads", () => {
  it("keep no API key of the app's own, in arguments or results", async () => {
    const { key } = await createApiKey(handle.db, a, { name: "ci" });
    expect(key).toMatch(/^sb_/);
    await setRecordToolPayloads(handle.db, a, true);
    await recordUsage(handle.db, a, {
      surface: "rest",
      tool: "echo_anything",
      outcome: "ok",
      latencyMs: 3,
      arguments: { note: `deploy with ${key}` },
      result: { content: [{ type: "text", text: JSON.stringify({ echoed: `deploy with ${key}` }) }] },
    });
    const rows = await usageRecordsOf(handle.db, a.orgId);
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(key.slice(12));
    expect(rows[0]?.arguments).toEqual({ note: `deploy with ${key.slice(0, 11)}_[redacted]` });
  });
});
