import { describe, expect, it } from "vitest";
import { conversationGroup, groupConversations } from "@/lib/chat/conversation-groups";

describe("the conversation list's day groups", () => {
  const now = new Date("2026-11-25T10:00:00Z");

  // By calendar day in the reader's time zone, not by 24-hour spans; it is 2026-11-25T10:00:00Z.
  it.each([
    ["2026-11-25T00:30:00Z", "UTC", "Today"],
    ["2026-11-24T23:30:00Z", "UTC", "Yesterday"],
    // 23:30 UTC on the 24th is already the 25th in Berlin.
    ["2026-11-24T23:30:00Z", "Europe/Berlin", "Today"],
    // 03:00 UTC on the 25th is 22:00 on the 24th in New York.
    ["2026-11-25T03:00:00Z", "America/New_York", "Yesterday"],
    ["2026-11-19T12:00:00Z", "UTC", "Previous 7 days"],
    ["2026-11-18T12:00:00Z", "UTC", "Older"],
  ])("groups %s read in %s under %s", (updatedAt, timeZone, group) => {
    expect(conversationGroup(new Date(updatedAt), now, timeZone)).toBe(group);
  });

  it("keeps the items' order within each group and leaves empty groups out", () => {
    const items = [
      { id: "a", updatedAt: new Date("2026-11-25T09:00:00Z") },
      { id: "b", updatedAt: new Date("2026-11-25T08:00:00Z") },
      { id: "c", updatedAt: new Date("2026-10-01T08:00:00Z") },
    ];
    expect(
      groupConversations(items, now, "UTC").map(({ group, items }) => [group, items.map((i) => i.id)]),
    ).toEqual([
      ["Today", ["a", "b"]],
      ["Older", ["c"]],
    ]);
  });

  it("puts pinned items first, whatever their day", () => {
    const items = [
      { id: "a", updatedAt: new Date("2026-11-25T09:00:00Z") },
      { id: "b", updatedAt: new Date("2026-10-01T08:00:00Z"), pinned: true },
      { id: "c", updatedAt: new Date("2026-11-25T08:00:00Z"), pinned: false },
    ];
    expect(
      groupConversations(items, now, "UTC").map(({ group, items }) => [group, items.map((i) => i.id)]),
    ).toEqual([
      ["Pinned", ["b"]],
      ["Today", ["a", "c"]],
    ]);
  });
});
