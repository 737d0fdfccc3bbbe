import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ChatView } from "@/components/chat/chat-view";
import { getDb } from "@/db/client";
import { requirePageContext } from "@/lib/auth/request-context";
import { getConversation, loadMessages } from "@/lib/chat/conversations";
import { chatModel } from "@/lib/chat/model";
import { NotFoundError } from "@/lib/errors";

export const metadata: Metadata = { title: "Conversation" };

export default async function ConversationPage({ params }: { params: Promise<{ id: string }> }) {
  const ctx = await requirePageContext();
  const { id } = await params;
  try {
    const conversation = await getConversation(getDb(), ctx, id);
    const messages = await loadMessages(getDb(), conversation.id);
    return (
      <ChatView
        conversationId={conversation.id}
        title={conversation.title}
        initialMessages={messages}
        discovery={conversation.discovery ?? null}
        offline={chatModel(null).offline}
      />
    );
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
}
