"use client";

import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, type UIMessage } from "ai";
import { Loader2, RotateCcw, Send, Square } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { ConversationDiscovery } from "@/db/schema";
import { ConversationHeader } from "./conversation-header";
import { MessageParts } from "./message-parts";

export function ChatView({
  conversationId,
  title,
  initialMessages,
  discovery,
  offline,
}: {
  conversationId: string;
  title: string;
  initialMessages: UIMessage[];
  discovery: ConversationDiscovery | null;
  offline: boolean;
}) {
  const router = useRouter();
  const [input, setInput] = useState("");
  const { messages, sendMessage, status, stop, regenerate, error } = useChat({
    id: conversationId,
    messages: initialMessages,
    transport: new DefaultChatTransport({
      api: "/api/chat",
      prepareSendMessagesRequest: ({ id, messages: all }) => ({ body: { id, messages: all } }),
    }),
    // The conversation's discovery and title are stored by the server: show them once the turn ends.
    onFinish: () => router.refresh(),
  });
  const busy = status === "submitted" || status === "streaming";

  return (
    <div className="flex min-h-[calc(100dvh-8rem)] flex-col gap-4">
      <ConversationHeader conversationId={conversationId} title={title} discovery={discovery} />
      {offline ? (
        <Alert tone="info">
          Offline mode: no language model is configured. Run a tool with <code>/call tool_name {"{…}"}</code>.
        </Alert>
      ) : null}
      <ol className="grid flex-1 content-start gap-4" aria-label="Messages" data-testid="messages">
        {messages.map((message) => (
          <li
            key={message.id}
            className={message.role === "user" ? "justify-self-end" : "justify-self-stretch"}
            data-testid={`message-${message.role}`}
          >
            <div
              className={
                message.role === "user"
                  ? "max-w-prose rounded-lg bg-primary px-4 py-2 text-primary-foreground"
                  : "grid gap-2"
              }
            >
              <MessageParts message={message} />
            </div>
          </li>
        ))}
        {status === "submitted" ? (
          <li className="flex items-center gap-2 text-sm text-muted-foreground">
            <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> Thinking…
          </li>
        ) : null}
      </ol>
      {error ? <Alert>{error.message || "Something went wrong."}</Alert> : null}
      <form
        className="sticky bottom-0 flex items-end gap-2 border-t bg-background pt-3"
        onSubmit={(event) => {
          event.preventDefault();
          const text = input.trim();
          if (!text || busy) return;
          void sendMessage({ text });
          setInput("");
        }}
      >
        <label htmlFor="chat-input" className="sr-only">
          Message
        </label>
        <textarea
          id="chat-input"
          value={input}
          onChange={(event) => setInput(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey) {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }
          }}
          rows={2}
          placeholder={offline ? '/call node_knowledge_retriever {"node_names": ["…"]}' : "Ask something…"}
          className="min-h-12 flex-1 resize-y rounded-md border bg-card px-3 py-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
        />
        {busy ? (
          <Button variant="secondary" onClick={() => void stop()}>
            <Square className="h-4 w-4" aria-hidden /> Stop
          </Button>
        ) : (
          <>
            {messages.some((m) => m.role === "assistant") ? (
              <Button
                variant="ghost"
                size="icon"
                aria-label="Regenerate the last answer"
                onClick={() => void regenerate()}
              >
                <RotateCcw className="h-4 w-4" />
              </Button>
            ) : null}
            <Button type="submit" disabled={!input.trim()}>
              <Send className="h-4 w-4" aria-hidden /> Send
            </Button>
          </>
        )}
      </form>
    </div>
  );
}
