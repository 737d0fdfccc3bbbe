import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveUserContext, type UserContext } from "@/lib/auth/context";
import { registerUser } from "@/lib/auth/users";
import { AppError } from "@/lib/errors";
import { importKnowledgeNodes } from "@/lib/knowledge/import";
import { listKnowledgeNodes } from "@/lib/knowledge/nodes";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
beforeAll(async () => {
  handle = await createTestDatabase();
  const user = await registerUser(handle.db, { name: "A", email: "a@example.com", password: "password a" });
  a = await resolveUserContext(handle.db, { userId: user.user.id });
});
afterAll(() => handle?.close());

describe("knowledge import", () => {
  it("imports JSON and Markdown files, updating nodes that exist", async () => {
    const json = JSON.stringify([
      { name: "router-1", content: "Frankfurt edge router", metadata: { site: "fra" } },
      { name: "router-2", content: "Dublin edge router" },
    ]);
    const markdown = "# On-call\n\nPage the SRE on duty.\n";
    expect(
      await importKnowledgeNodes(handle.db, a, [
        { name: "nodes.json", text: json },
        { name: "oncall.md", text: markdown },
      ]),
    ).toEqual({ imported: 3 });
    await importKnowledgeNodes(handle.db, a, [
      {
        name: "fix.json",
        text: JSON.stringify({ nodes: [{ name: "router-2", content: "Dublin core router" }] }),
      },
    ]);
    const nodes = await listKnowledgeNodes(handle.db, a);
    expect(nodes.map((node) => [node.name, node.content])).toEqual([
      ["On-call", "Page the SRE on duty."],
      ["router-1", "Frankfurt edge router"],
      ["router-2", "Dublin core router"],
    ]);
  });

  it("imports nothing when any file is bad, and says which", async () => {
    const error = await importKnowledgeNodes(handle.db, a, [
      { name: "good.json", text: JSON.stringify([{ name: "fresh", content: "new" }]) },
      { name: "bad.json", text: "{ nope" },
      { name: "picture.png", text: "" },
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toMatch(
      /bad.json is not valid JSON.*picture.png: only .json and .md/,
    );
    expect((await listKnowledgeNodes(handle.db, a)).map((node) => node.name)).not.toContain("fresh");
  });

  it("names the field it expected when a node has another shape", async () => {
    const error = await importKnowledgeNodes(handle.db, a, [
      { name: "other.json", text: JSON.stringify([{ title: "router-9", text: "Oslo" }, "just text"]) },
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    const { message } = error as AppError;
    expect(message).toContain('other.json, node 1: expected the field "name"');
    expect(message).toContain('Each node is {"name": "…", "content": "…", "metadata": {…}}.');
    expect(message).toContain("other.json, node 2: expected an object like {");
  });
});
