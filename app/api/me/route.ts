import { requireSignedInUser } from "@/lib/auth/request-context";
import { findUserById } from "@/lib/auth/user-rows";
import { apiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

/** The signed-in user and their active organization and role. */
export const GET = apiRoute("GET /api/me", async (_request, { db }) => {
  const ctx = await requireSignedInUser();
  const user = await findUserById(db, ctx.userId);
  return Response.json({ user, organizationId: ctx.orgId, role: ctx.role });
});

export const { DELETE, OPTIONS, PATCH, POST, PUT } = otherMethods("GET");
