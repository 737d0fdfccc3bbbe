import type { Metadata } from "next";
import { AdminOnly } from "@/components/shell/admin-only";

export const metadata: Metadata = { title: "Only for owners and admins" };

/** A page only owners and admins may use, opened by a member: answered 403 inside the app's shell. */
export default function AppForbidden() {
  return <AdminOnly />;
}
