import { z } from "zod";
import { requireSignedInUser } from "@/lib/auth/request-context";
import {
  conversationJson,
  conversationMarkdown,
  exportFileName,
  exportFormats,
} from "@/lib/chat/conversation-export";
import { getConversation, loadBranches } from "@/lib/chat/conversations";
import { apiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

const querySchema = z.object({
  format: z.enum(exportFormats, { error: 'format is "markdown" or "json".' }).default("markdown"),
});

/** Downloads one of the user's own conversations as Markdown or JSON (`?format=`). */
export const GET = apiRoute<{ id: string }>("GET /api/chat/[id]/export", async (request, { params, db }) => {
  const ctx = await requireSignedInUser();
  const { format } = parseInput(querySchema, {
    format: new URL(request.url).searchParams.get("format") ?? undefined,
  });
  const conversation = await getConversation(db, ctx, (await params).id);
  // The branch shown in the conversation; the export says so when other versions are left out.
  const { tree, shown } = await loadBranches(db, conversation.id);
  const options = { otherVersions: tree.byId.size > shown.length };
  const body =
    format === "json"
      ? conversationJson(conversation, shown, options)
      : conversationMarkdown(conversation, shown, options);
  return new Response(body, {
    headers: {
      "content-type": format === "json" ? "application/json; charset=utf-8" : "text/markdown; charset=utf-8",
      "content-disposition": `attachment; filename="${exportFileName(conversation.title, format)}"`,
      "cache-control": "private, no-store",
    },
  });
});

export const { DELETE, OPTIONS, PATCH, POST, PUT } = otherMethods("GET");
