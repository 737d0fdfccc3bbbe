import { requireSignedInUser } from "@/lib/auth/request-context";
import { showVersion } from "@/lib/chat/conversations";
import { apiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";
import { readJsonBody } from "@/lib/http/read-json";

export const dynamic = "force-dynamic";

/** Shows another version of a message (`{ show: <message id> }`): answers the branch now shown and its versions. */
export const POST = apiRoute<{ id: string }>(
  "POST /api/chat/[id]/versions",
  async (request, { params, db }) => {
    const ctx = await requireSignedInUser();
    const { shown, versions } = await showVersion(db, ctx, (await params).id, await readJsonBody(request));
    return Response.json(
      { messages: shown, versions },
      { headers: { "cache-control": "private, no-store" } },
    );
  },
);

export const { DELETE, GET, HEAD, OPTIONS, PATCH, PUT } = otherMethods("POST");
