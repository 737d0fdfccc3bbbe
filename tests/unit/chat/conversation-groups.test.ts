import { describe, expect, it } from "vitest";
import { conversationGroup, groupConversations } from "@/lib/chat/conversation-groups";

describe("the conversation list's day groups", () => {
  const now = new Date("2026-11-25T10:00:00Z");

  it("groups by calendar day in the reader's time zone, not by 24-hour spans", () => {
    expect(conversationGroup(new Date("2026-11-25T00:30:00Z"), now, "UTC")).toBe("Today");
    expect(conversationGroup(new Date("2026-11-24T23:30:00Z"), now, "UTC")).toBe("Yesterday");
    // 23:30 UTC on the 24th is already the 25th in Berlin.
    expect(conversationGroup(new Date("2026-11-24T23:30:00Z"), now, "Europe/Berlin")).toBe("Today");
    // 03:00 UTC on the 25th is 22:00 on the 24th in New York.
    expect(conversationGroup(new Date("2026-11-25T03:00:00Z"), now, "America/New_York")).toBe("Yesterday");
    expect(conversationGroup(new Date("2026-11-19T12:00:00Z"), now, "UTC")).toBe("Previous 7 days");
    expect(conversationGroup(new Date("2026-11-18T12:00:00Z"), now, "UTC")).toBe("Earlier");
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
      ["Earlier", ["c"]],
    ]);
  });
});
