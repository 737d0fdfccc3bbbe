/** The groups of the conversation list, newest first. */
export const CONVERSATION_GROUPS = ["Today", "Yesterday", "Previous 7 days", "Earlier"] as const;
export type ConversationGroup = (typeof CONVERSATION_GROUPS)[number];

/** Days since the epoch of the calendar day `date` falls on in `timeZone`. */
function dayNumber(date: Date, timeZone: string): number {
  const [year, month, day] = date.toLocaleDateString("en-CA", { timeZone }).split("-").map(Number);
  return Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1) / 86_400_000;
}

/** Which group a conversation last active at `updatedAt` belongs to, by calendar days in `timeZone`. */
export function conversationGroup(updatedAt: Date, now: Date, timeZone: string): ConversationGroup {
  const days = dayNumber(now, timeZone) - dayNumber(updatedAt, timeZone);
  if (days <= 0) return "Today";
  if (days === 1) return "Yesterday";
  if (days < 7) return "Previous 7 days";
  return "Earlier";
}

/** The items in their groups, each group in the items' order, empty groups left out. */
export function groupConversations<Item extends { updatedAt: Date }>(
  items: Item[],
  now: Date,
  timeZone: string,
): { group: ConversationGroup; items: Item[] }[] {
  const byGroup = new Map<ConversationGroup, Item[]>();
  for (const item of items) {
    const group = conversationGroup(item.updatedAt, now, timeZone);
    byGroup.set(group, [...(byGroup.get(group) ?? []), item]);
  }
  return CONVERSATION_GROUPS.flatMap((group) => {
    const grouped = byGroup.get(group);
    return grouped ? [{ group, items: grouped }] : [];
  });
}
