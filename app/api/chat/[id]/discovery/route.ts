import { z } from "zod";
import { requireSignedInUser } from "@/lib/auth/request-context";
import { getConversation } from "@/lib/chat/conversations";
import { prepareConversation, type StartProgress } from "@/lib/chat/prepare-conversation";
import { apiRoute } from "@/lib/http/api-route";
import { otherMethods } from "@/lib/http/other-methods";
import { readJsonBody } from "@/lib/http/read-json";
import { logger } from "@/lib/logger";
import { parseInput } from "@/lib/validation";

export const dynamic = "force-dynamic";

const bodySchema = z.object({ refresh: z.boolean().default(false) }).strict();

/**
 * Conversation start (or "Refresh integrations"): discovers the agent's integrations within the discovery
 * budget and keeps the result with the conversation. A route rather than a server action, since the browser
 * runs server actions one at a time and a slow discovery must not hold up renaming or deleting. A client that
 * accepts `application/x-ndjson` gets one line as it starts and one as each integration answers or fails.
 */
export const POST = apiRoute<{ id: string }>(
  "POST /api/chat/[id]/discovery",
  async (request, { params, db }) => {
    const ctx = await requireSignedInUser();
    const { refresh } = parseInput(bodySchema, await readJsonBody(request));
    const conversation = await getConversation(db, ctx, (await params).id);
    if (!refresh && conversation.discovery) return Response.json({ ok: true });
    if (!request.headers.get("accept")?.includes("application/x-ndjson")) {
      await prepareConversation(db, ctx, conversation, { refresh, signal: request.signal });
      return Response.json({ ok: true });
    }
    const encoder = new TextEncoder();
    // A browser that cancels (or leaves) closes the stream; nothing more is written to it.
    let open = true;
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const send = (line: object) => {
          if (open) controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
        };
        const progress: StartProgress = {
          started: (integrations) => send({ type: "started", integrations }),
          settled: (event) => send({ type: "settled", ...event }),
        };
        try {
          await prepareConversation(db, ctx, conversation, { refresh, progress, signal: request.signal });
          send({ type: "done" });
        } catch (error) {
          if (request.signal.aborted) return;
          logger.warn("conversation start failed", { conversationId: conversation.id, err: error });
          send({ type: "failed", message: "Could not connect to the agent's integrations." });
        } finally {
          if (open) controller.close();
          open = false;
        }
      },
      cancel() {
        open = false;
      },
    });
    return new Response(stream, { headers: { "content-type": "application/x-ndjson; charset=utf-8" } });
  },
);

export const { DELETE, GET, HEAD, OPTIONS, PATCH, PUT } = otherMethods("POST");
