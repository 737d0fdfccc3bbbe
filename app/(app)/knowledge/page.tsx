import type { Metadata } from "next";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { isAdminRole } from "@/lib/auth/context";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { knowledgePage } from "@/lib/knowledge/knowledge-page";
import { plural } from "@/lib/plural";
import { DeleteNodeButton, ImportNodesForm, NodeForm } from "./node-forms";

export const metadata: Metadata = { title: "Knowledge" };

type Search = Promise<Record<string, string | string[] | undefined>>;
const single = (value: string | string[] | undefined) => (typeof value === "string" ? value : undefined);

/** A search snippet with the matched words marked, as text: nothing in it is read as HTML. */
function Snippet({ text }: { text: string }) {
  return (
    <>
      {text.split(/<mark>(.*?)<\/mark>/g).map((part, index) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet, in order
        index % 2 ? <mark key={index}>{part}</mark> : <span key={index}>{part}</span>,
      )}
    </>
  );
}

export default async function KnowledgePage({ searchParams }: { searchParams: Search }) {
  const { db, ctx } = await requireSignedInPage();
  const params = await searchParams;
  const query = single(params.q)?.slice(0, 200);
  const view = await knowledgePage(db, ctx, { query, page: Number(single(params.page) ?? 1) });
  const { nodes } = view;
  const canManage = isAdminRole(ctx.role);
  const pageLink = (page: number) =>
    `/knowledge?${new URLSearchParams({ ...(query ? { q: query } : {}), page: String(page) }).toString()}`;
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-semibold">Knowledge</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Named notes the built-in tools <code>node_knowledge_retriever</code> and{" "}
          <code>knowledge_search</code> read.
        </p>
      </div>
      {canManage ? (
        <Card>
          <CardTitle>Add a node</CardTitle>
          <CardDescription>Names are unique within the organization.</CardDescription>
          <NodeForm />
        </Card>
      ) : null}
      {canManage ? (
        <Card>
          <CardTitle>Import</CardTitle>
          <CardDescription>
            Add or update several nodes at once; a node whose name exists is updated.
          </CardDescription>
          <ImportNodesForm />
        </Card>
      ) : null}
      <search>
        <form action="/knowledge" className="flex max-w-xl flex-wrap items-end gap-2">
          <div className="grid min-w-48 flex-1 gap-1.5">
            <label htmlFor="knowledge-query" className="text-sm font-medium">
              Search knowledge
            </label>
            <Input id="knowledge-query" name="q" defaultValue={query} placeholder="Words to find" />
          </div>
          <Button type="submit" variant="secondary">
            Search
          </Button>
          {query ? (
            <Link href="/knowledge" className="px-2 py-2 text-sm text-primary hover:underline">
              Clear
            </Link>
          ) : null}
        </form>
      </search>
      <p className="text-sm text-muted-foreground" data-testid="knowledge-count" aria-live="polite">
        {query
          ? `${plural(view.total, "node")} ${view.total === 1 ? "matches" : "match"} "${query}", best first.`
          : `${plural(view.total, "node")}.`}
        {view.pages > 1 ? ` Page ${view.page} of ${view.pages}.` : ""}
      </p>
      {nodes.length === 0 ? (
        <Card>
          <p className="text-sm text-muted-foreground">{query ? "Nothing matches." : "No knowledge yet."}</p>
        </Card>
      ) : (
        <ul className="grid gap-3" aria-label="Knowledge nodes">
          {nodes.map((node) => (
            <li key={node.id} data-testid="knowledge-row">
              <Card>
                <details>
                  <summary className="cursor-pointer">
                    <span className="font-medium">{node.name}</span>
                    <span className="ml-2 text-sm text-muted-foreground">
                      {node.snippet ? <Snippet text={node.snippet} /> : node.content.slice(0, 120)}
                    </span>
                  </summary>
                  {canManage ? (
                    <div className="mt-4 grid gap-3">
                      <NodeForm node={node} />
                      <div>
                        <DeleteNodeButton id={node.id} name={node.name} />
                      </div>
                    </div>
                  ) : (
                    <pre className="mt-3 whitespace-pre-wrap text-sm">{node.content}</pre>
                  )}
                </details>
              </Card>
            </li>
          ))}
        </ul>
      )}
      {view.pages > 1 ? (
        <nav aria-label="Knowledge pages" className="flex gap-2 text-sm">
          {view.page > 1 ? (
            <Link href={pageLink(view.page - 1)} className="text-primary hover:underline">
              Previous page
            </Link>
          ) : null}
          {view.page < view.pages ? (
            <Link href={pageLink(view.page + 1)} className="text-primary hover:underline">
              Next page
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
