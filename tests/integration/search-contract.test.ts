import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserContext } from "@/lib/auth/context";
import { createKnowledgeNode } from "@/lib/knowledge/nodes";
import { postgresSearch } from "@/lib/search/postgres-search";
import type { SearchBackend } from "@/lib/search/search-backend";
import { elasticsearch } from "@/lib/search/search-backends";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let a: UserContext;
let b: UserContext;

beforeAll(async () => {
  handle = await createTestDatabase();
  [a, b] = (await registerOwners(handle.db, "A", "B")) as [UserContext, UserContext];
  // Writes go through the same code as the app, which also indexes into Elasticsearch when it is configured.
  await createKnowledgeNode(handle.db, a, {
    name: "kubernetes",
    content: "How we run containers: clusters, pods and upgrades.",
  });
  await createKnowledgeNode(handle.db, a, {
    name: "backups",
    content: "Nightly backups of the kubernetes volumes to object storage.",
  });
  await createKnowledgeNode(handle.db, a, {
    name: "holidays",
    content: "Office closed between Christmas and New Year.",
  });
  for (let i = 0; i < 12; i++)
    await createKnowledgeNode(handle.db, a, {
      name: `runbook-${i}`,
      content: `Runbook ${i} for the pager rotation.`,
    });
  await createKnowledgeNode(handle.db, b, { name: "kubernetes", content: "B's kubernetes notes." });
  await elasticsearch()?.refresh();
});
afterAll(() => handle?.close());

/** One contract, every search engine: the same questions must get the same kind of answers. */
function searchContract(name: string, backend: () => SearchBackend) {
  describe(`knowledge search contract: ${name}`, () => {
    it("ranks a match in the name above a match in the content", async () => {
      const hits = await backend().search(a.orgId, "kubernetes", 10);
      expect(hits.map((hit) => hit.name)).toEqual(["kubernetes", "backups"]);
      expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? 0);
    });

    it("highlights the matching words in snippets", async () => {
      const [hit] = await backend().search(a.orgId, "containers", 10);
      expect(hit?.name).toBe("kubernetes");
      expect(hit?.snippet).toMatch(/<mark>containers<\/mark>/i);
    });

    it("searches only the organization's nodes", async () => {
      const hits = await backend().search(b.orgId, "kubernetes", 10);
      expect(hits.map((hit) => hit.name)).toEqual(["kubernetes"]);
      expect(await backend().search(b.orgId, "Christmas", 10)).toEqual([]);
    });

    it("respects the limit and finds nothing for unrelated words", async () => {
      expect(await backend().search(a.orgId, "runbook", 5)).toHaveLength(5);
      expect(await backend().search(a.orgId, "zeppelin", 10)).toEqual([]);
    });
  });
}

searchContract("PostgreSQL full-text search", () => postgresSearch(handle.db));
if (process.env.ELASTICSEARCH_URL) {
  searchContract("Elasticsearch", () => {
    const backend = elasticsearch();
    if (!backend) throw new Error("ELASTICSEARCH_URL is set but no backend was built");
    return backend;
  });
}
