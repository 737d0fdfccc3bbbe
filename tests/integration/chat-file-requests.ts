import { expect } from "vitest";
import { GET as fileRoute } from "@/app/api/chat/[id]/files/[fileId]/route";
import { POST as uploadRoute } from "@/app/api/chat/[id]/files/route";
import type { UserContext } from "@/lib/auth/context";
import { postChatTurn } from "./scripted-chat";

export interface UploadedFile {
  fileId: string;
  name: string;
  mediaType: string;
  size: number;
}

/**
 * The chat's file routes and a turn, called as the browser calls them, each signed in as `ctx` (the test file's
 * mock of the request context reads `signedIn`).
 */
export function chatFileRequests(signedIn: { ctx: UserContext | undefined }) {
  function upload(
    ctx: UserContext,
    id: string,
    name: string,
    bytes: Buffer,
    type = "application/octet-stream",
  ) {
    signedIn.ctx = ctx;
    return uploadRoute(
      new Request(`http://localhost/api/chat/${id}/files?name=${encodeURIComponent(name)}`, {
        method: "POST",
        headers: { "content-type": type },
        body: new Uint8Array(bytes),
      }),
      { params: Promise.resolve({ id }) },
    );
  }

  async function uploaded(ctx: UserContext, id: string, name: string, bytes: Buffer): Promise<UploadedFile> {
    const response = await upload(ctx, id, name, bytes);
    expect(response.status).toBe(201);
    return (await response.json()) as UploadedFile;
  }

  function download(ctx: UserContext, id: string, fileId: string) {
    signedIn.ctx = ctx;
    return fileRoute(new Request(`http://localhost/api/chat/${id}/files/${fileId}`), {
      params: Promise.resolve({ id, fileId }),
    });
  }

  /** A turn whose user message has these parts. */
  function turn(ctx: UserContext, id: string, parts: unknown[]) {
    signedIn.ctx = ctx;
    return postChatTurn({ id, message: { id: crypto.randomUUID(), role: "user", parts } });
  }

  return { upload, uploaded, download, turn };
}
