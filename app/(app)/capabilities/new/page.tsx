import type { Metadata } from "next";
import { forbidden } from "next/navigation";
import { CapabilityForm, NEW_CAPABILITY } from "@/components/capabilities/capability-form";
import { isAdminRole } from "@/lib/auth/context";
import { requireSignedInPage } from "@/lib/auth/request-context";

export const metadata: Metadata = { title: "New capability" };

export default async function NewCapabilityPage() {
  const { ctx } = await requireSignedInPage();
  if (!isAdminRole(ctx.role)) forbidden();
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold">New capability</h1>
      <CapabilityForm capability={NEW_CAPABILITY} readOnly={false} />
    </div>
  );
}
