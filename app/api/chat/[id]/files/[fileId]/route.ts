import { requireSignedInUser } from "@/lib/auth/request-context";
import { getChatFile } from "@/lib/chat/chat-files";
import { apiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";

export const dynamic = "force-dynamic";

/** One attached file, for its owner only (anyone else gets 404); images inline, other files as downloads. */
export const GET = apiRoute<{ id: string; fileId: string }>(
  "GET /api/chat/[id]/files/[fileId]",
  async (_request, { params, db }) => {
    const ctx = await requireSignedInUser();
    const { id, fileId } = await params;
    const file = await getChatFile(db, ctx, id, fileId);
    const inline = file.mediaType.startsWith("image/");
    return new Response(new Uint8Array(file.content), {
      headers: {
        "content-type": file.mediaType === "text/plain" ? "text/plain; charset=utf-8" : file.mediaType,
        "content-length": String(file.size),
        "content-disposition": `${inline ? "inline" : "attachment"}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
        // The type was read from the bytes; the browser must not guess another (an HTML page, a script).
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; sandbox",
        "cache-control": "private, max-age=3600",
      },
    });
  },
);

export const { DELETE, OPTIONS, PATCH, POST, PUT } = otherMethods("GET");
