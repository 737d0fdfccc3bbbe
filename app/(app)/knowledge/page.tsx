import type { Metadata } from "next";
import { Card, CardDescription, CardTitle } from "@/components/ui/card";
import { isAdminRole } from "@/lib/auth/context";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { listKnowledgeNodes } from "@/lib/knowledge/nodes";
import { DeleteNodeButton, ImportNodesForm, NodeForm } from "./node-forms";

export const metadata: Metadata = { title: "Knowledge" };

export default async function KnowledgePage() {
  const { db, ctx } = await requireSignedInPage();
  const nodes = await listKnowledgeNodes(db, ctx);
  const canManage = isAdminRole(ctx.role);
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
      {nodes.length === 0 ? (
        <Card>
          <p className="text-sm text-muted-foreground">No knowledge yet.</p>
        </Card>
      ) : (
        <ul className="grid gap-3" aria-label="Knowledge nodes">
          {nodes.map((node) => (
            <li key={node.id} data-testid="knowledge-row">
              <Card>
                <details>
                  <summary className="cursor-pointer">
                    <span className="font-medium">{node.name}</span>
                    <span className="ml-2 text-sm text-muted-foreground">{node.content.slice(0, 120)}</span>
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
    </div>
  );
}
