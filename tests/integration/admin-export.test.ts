import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as exportRoute } from "@/app/(app)/admin/export/route";
import { usageRecords } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { useDatabase } from "./gateway-client";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

// The export reads the signed-in user through next-auth, which needs Next's runtime: stand in for it.
const session = vi.hoisted(() => ({ ctx: null as UserContext | null }));
vi.mock("@/lib/auth/request-context", () => ({ requireSignedInUser: async () => session.ctx }));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;

beforeAll(async () => {
  handle = await createTestDatabase();
  useDatabase(handle);
  [a] = (await registerOwners(handle.db, "Olga")) as [UserContext];
  session.ctx = a;
  // Usage keeps the name a caller asked for, even an unknown one: any API key holder chooses these cells.
  const names = [
    "everything_echo",
    '=HYPERLINK("http://evil.example","x")',
    "\t=1+1",
    "\r=2+2",
    "\n=3+3-x",
    "@SUM(A1)",
    "+1",
    "-1",
  ];
  await handle.db.insert(usageRecords).values(
    names.map((tool, i) => ({
      organizationId: a.orgId,
      occurredAt: new Date(Date.now() - 60_000),
      surface: "rest" as const,
      tool,
      outcome: "failed" as const,
      latencyMs: 10 * (i + 1),
    })),
  );
});
afterAll(async () => {
  useDatabase(undefined);
  await handle?.close();
});

describe("the CSV export", () => {
  it("neutralizes cells a spreadsheet would run as formulas, after leading tabs and line breaks too", async () => {
    const response = await exportRoute(new Request("http://localhost:3000/admin/export?range=24h"), {
      params: Promise.resolve({}),
    });
    expect(response.status).toBe(200);
    const csv = await response.text();
    const lines = csv.split(/\r\n|\r|\n/);
    // No cell, at the start of a line or after a separator, begins with a formula character.
    for (const line of lines) expect(line).not.toMatch(/(^|,)[=+\-@\t\r]/);
    for (const expected of [
      "everything_echo,,1,1,0,0,10,10",
      '"\'=HYPERLINK(""http://evil.example"",""x"")",,1,1,0,0,20,20',
      "'=1+1,,1,1,0,0,30,30",
      "'=2+2,,1,1,0,0,40,40",
      "'=3+3-x,,1,1,0,0,50,50",
      "'@SUM(A1),,1,1,0,0,60,60",
      "'+1,,1,1,0,0,70,70",
      "'-1,,1,1,0,0,80,80",
    ])
      expect(lines).toContain(expected);
  });
});
