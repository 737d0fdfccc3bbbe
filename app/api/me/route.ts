import { getDb } from "@/db/client";
import { requireApiContext } from "@/lib/auth/request-context";
import { findUserById } from "@/lib/auth/users";
import { toErrorResponse } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** The signed-in user and their active organization and role. */
export async function GET() {
  try {
    const ctx = await requireApiContext();
    const user = await findUserById(getDb(), ctx.userId);
    return Response.json({ user, organizationId: ctx.orgId, role: ctx.role });
  } catch (error) {
    return toErrorResponse(error, { route: "GET /api/me" });
  }
}
