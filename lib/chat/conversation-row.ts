import type { ConversationListItem } from "./conversations";

/** A row of the conversation list as the browser receives it: plain values only. */
export interface ConversationRow {
  id: string;
  title: string;
  agentName: string | null;
  /** ISO instant of the last activity. */
  updatedAt: string;
  pinned: boolean;
}

export function conversationRow(item: ConversationListItem): ConversationRow {
  return {
    id: item.id,
    title: item.title,
    agentName: item.agentName,
    updatedAt: item.updatedAt.toISOString(),
    pinned: item.pinnedAt !== null,
  };
}
