/** The groups of the conversation list, in order: pinned ones first, then by day, newest first. */
export const CONVERSATION_GROUPS = ["Pinned", "Today", "Yesterday", "Previous 7 days", "Older"] as const;
export type ConversationGroup = (typeof CONVERSATION_GROUPS)[number];

// One formatter per time zone: `toLocaleDateString` with options builds a new one on every call, which costs
// about a millisecond each, paid for every row whenever the sidebar renders (each switch of conversation).
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Days since the epoch of the calendar day `date` falls on in `timeZone`. */
function dayNumber(date: Date, timeZone: string): number {
  const [year, month, day] = formatterFor(timeZone).format(date).split("-").map(Number);
  return Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1) / 86_400_000;
}

/** Which day group a conversation last active at `updatedAt` belongs to, by calendar days in `timeZone`. */
export function conversationGroup(updatedAt: Date, now: Date, timeZone: string): ConversationGroup {
  const days = dayNumber(now, timeZone) - dayNumber(updatedAt, timeZone);
  if (days <= 0) return "Today";
  if (days === 1) return "Yesterday";
  if (days < 7) return "Previous 7 days";
  return "Older";
}

/** The items in their groups (pinned ones in "Pinned" whatever their day), each group in the items' order, empty groups left out. */
export function groupConversations<Item extends { updatedAt: Date; pinned?: boolean }>(
  items: Item[],
  now: Date,
  timeZone: string,
): { group: ConversationGroup; items: Item[] }[] {
  const byGroup = new Map<ConversationGroup, Item[]>();
  for (const item of items) {
    const group = item.pinned ? "Pinned" : conversationGroup(item.updatedAt, now, timeZone);
    byGroup.set(group, [...(byGroup.get(group) ?? []), item]);
  }
  return CONVERSATION_GROUPS.flatMap((group) => {
    const grouped = byGroup.get(group);
    return grouped ? [{ group, items: grouped }] : [];
  });
}
