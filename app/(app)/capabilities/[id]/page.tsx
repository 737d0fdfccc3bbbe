import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { deleteCapabilityAction } from "@/app/(app)/capabilities/actions";
import { CapabilityForm } from "@/components/capabilities/capability-form";
import { DeleteWithConfirm } from "@/components/forms/delete-with-confirm";
import { isAdminRole } from "@/lib/auth/context";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { hintsOf } from "@/lib/capabilities/annotations-schema";
import { getCapability } from "@/lib/capabilities/store";
import { capabilityToolName } from "@/lib/capabilities/tool-name";
import { NotFoundError } from "@/lib/errors";
import { plural } from "@/lib/plural";

export const metadata: Metadata = { title: "Capability" };

export default async function CapabilityPage({ params }: { params: Promise<{ id: string }> }) {
  const { db, ctx } = await requireSignedInPage();
  const { id } = await params;
  const row = await getCapability(db, ctx, id).catch((error: unknown) => {
    if (error instanceof NotFoundError) notFound();
    throw error;
  });
  const name = capabilityToolName(row.namespace, row.action);
  const admin = isAdminRole(ctx.role);
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="font-mono text-xl font-semibold">{name}</h1>
        {admin ? (
          <DeleteWithConfirm
            label="Delete capability"
            title={`Delete ${name}?`}
            description="Clients that call it get “Capability not found” from then on."
            action={deleteCapabilityAction.bind(null, row.id)}
          />
        ) : null}
      </div>
      <p className="text-sm text-muted-foreground">
        {plural(row.usageCount, "call")}, {row.successCount} succeeded
        {row.usageCount ? `, ${Math.round(row.totalLatencyMs / row.usageCount)} ms on average` : ""}.
      </p>
      <CapabilityForm
        readOnly={!admin}
        capability={{
          id: row.id,
          namespace: row.namespace,
          action: row.action,
          description: row.description,
          parametersSchema: JSON.stringify(row.parametersSchema, null, 2),
          outputSchema: row.outputSchema ? JSON.stringify(row.outputSchema, null, 2) : "",
          hints: hintsOf(row.annotations),
          code: row.code,
        }}
      />
    </div>
  );
}
