import type { Database } from "@/db/client";
import type { RequestContext } from "@/lib/auth/context";
import { searchBackend } from "@/lib/search/search-backends";
import { type KnowledgeNodeView, listKnowledgeNodes } from "./nodes";

/** Nodes shown on one page of the Knowledge page. */
export const KNOWLEDGE_PAGE_SIZE = 25;
// As many as the knowledge_search tool returns at most: the page ranks as the tool does.
const SEARCH_LIMIT = 50;

/** Names in the order people count: `router-2` before `router-10`, case aside. */
const naturally = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

export interface KnowledgePageView {
  nodes: (KnowledgeNodeView & { snippet?: string })[];
  /** How many nodes there are, or match the search. */
  total: number;
  page: number;
  pages: number;
}

/**
 * One page of the organization's knowledge: every node in natural order of its name, or, with a query, those the
 * search backend finds, in the knowledge_search tool's ranking, with its snippets.
 */
export async function knowledgePage(
  db: Database,
  ctx: RequestContext,
  { query, page }: { query?: string; page: number },
): Promise<KnowledgePageView> {
  const all = await listKnowledgeNodes(db, ctx);
  let nodes: KnowledgePageView["nodes"];
  if (query?.trim()) {
    const byName = new Map(all.map((node) => [node.name, node]));
    const hits = await searchBackend(db).search(ctx.orgId, query.trim(), SEARCH_LIMIT);
    nodes = hits.flatMap((hit) => {
      const node = byName.get(hit.name);
      return node ? [{ ...node, snippet: hit.snippet }] : [];
    });
  } else nodes = [...all].sort((a, b) => naturally.compare(a.name, b.name));
  const pages = Math.max(1, Math.ceil(nodes.length / KNOWLEDGE_PAGE_SIZE));
  const current = Math.min(Math.max(1, Math.trunc(page) || 1), pages);
  return {
    nodes: nodes.slice((current - 1) * KNOWLEDGE_PAGE_SIZE, current * KNOWLEDGE_PAGE_SIZE),
    total: nodes.length,
    page: current,
    pages,
  };
}
