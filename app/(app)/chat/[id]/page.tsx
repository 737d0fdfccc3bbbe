import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ChatView } from "@/components/chat/chat-view";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { conversationModels } from "@/lib/chat/chat-models";
import { conversationView } from "@/lib/chat/conversation-view";
import { getConversation, loadBranches } from "@/lib/chat/conversations";
import { chatModel } from "@/lib/chat/model";
import { conversationAgent, prepareConversation } from "@/lib/chat/prepare-conversation";
import { runningTurn } from "@/lib/chat/turn-streams";
import { NotFoundError } from "@/lib/errors";

/** The window's title names the conversation, so tabs and history tell conversations apart. */
export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { db, ctx } = await requireSignedInPage();
  const conversation = await getConversation(db, ctx, (await params).id).catch(() => null);
  return { title: conversation?.title ?? "Conversation" };
}

export default async function ConversationPage({ params }: { params: Promise<{ id: string }> }) {
  const { db, ctx } = await requireSignedInPage();
  const { id } = await params;
  try {
    const conversation = await getConversation(db, ctx, id);
    const [{ shown, versions }, running] = await Promise.all([
      loadBranches(db, conversation.id),
      runningTurn(db, conversation.id),
    ]);
    // Once conversation start has run, its stored result rebuilds the view without asking the servers again.
    const prepared = conversation.discovery ? await prepareConversation(db, ctx, conversation) : null;
    const offline = chatModel(null).offline;
    const agent = prepared?.agent ?? (await conversationAgent(db, ctx, conversation));
    const models = offline ? null : await conversationModels(db, ctx, conversation, agent.model);
    return (
      <ChatView
        key={conversation.id}
        conversationId={conversation.id}
        title={conversation.title}
        initialMessages={shown}
        initialVersions={versions}
        answering={running !== undefined}
        view={
          prepared
            ? conversationView(prepared.agent, conversation, prepared.features, prepared.discovery)
            : null
        }
        offline={offline}
        models={models}
      />
    );
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
}
