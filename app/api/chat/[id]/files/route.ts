import { requireSignedInUser } from "@/lib/auth/request-context";
import { fileTooLarge, storeChatFile } from "@/lib/chat/chat-files";
import { getEnv } from "@/lib/env";
import { apiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";
import { readBodyBytes } from "@/lib/http/read-json";

export const dynamic = "force-dynamic";

/**
 * Uploads one file to a conversation of the user's: the raw bytes as the body, its name in `?name=`. Answers
 * 201 with the file's id, name, type (read from the bytes) and size; a message then attaches it by id.
 */
export const POST = apiRoute<{ id: string }>("POST /api/chat/[id]/files", async (request, { params, db }) => {
  const ctx = await requireSignedInUser();
  const name = new URL(request.url).searchParams.get("name") ?? "file";
  const bytes = await readBodyBytes(request, getEnv().CHAT_FILE_MAX_BYTES, fileTooLarge);
  const file = await storeChatFile(db, ctx, (await params).id, { name, bytes });
  return Response.json(file, { status: 201 });
});

export const { DELETE, GET, HEAD, OPTIONS, PATCH, PUT } = otherMethods("POST");
