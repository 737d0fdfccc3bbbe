import type { ReactNode } from "react";
import { ChatLayout } from "@/components/chat/chat-layout";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { conversationRow } from "@/lib/chat/conversation-row";
import { listConversations } from "@/lib/chat/conversations";

/** Kept while the person moves between conversations, so switching loads only the conversation itself. */
export default async function ChatSectionLayout({ children }: { children: ReactNode }) {
  const { db, ctx } = await requireSignedInPage();
  const conversations = await listConversations(db, ctx);
  return <ChatLayout conversations={conversations.map(conversationRow)}>{children}</ChatLayout>;
}
