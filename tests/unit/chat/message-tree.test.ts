import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import {
  branchEnd,
  messageTree,
  pathTo,
  type StoredMessage,
  shownPath,
  versionsOf,
} from "@/lib/chat/message-tree";

const node = (id: string, parentId: string | null): StoredMessage => ({
  parentId,
  message: { id, role: id.startsWith("u") ? "user" : "assistant", parts: [{ type: "text", text: id }] },
});
const ids = (messages: UIMessage[]) => messages.map((message) => message.id);

// u1 → a1 → u2 → a2, then u2 edited as u2b → a2b, then a1 regenerated as a1b (stored in that order).
const tree = messageTree([
  node("u1", null),
  node("a1", "u1"),
  node("u2", "a1"),
  node("a2", "u2"),
  node("u2b", "a1"),
  node("a2b", "u2b"),
  node("a1b", "u1"),
]);

describe("a conversation's message tree", () => {
  it("gives the path from the first message down to any message", () => {
    expect(ids(pathTo(tree, "a2"))).toEqual(["u1", "a1", "u2", "a2"]);
    expect(ids(pathTo(tree, "a1b"))).toEqual(["u1", "a1b"]);
    expect(pathTo(tree, null)).toEqual([]);
    expect(pathTo(tree, "unknown")).toEqual([]);
  });

  it("shows the stored choice, or the newest message's branch when there is none or it is gone", () => {
    expect(ids(shownPath(tree, "a2"))).toEqual(["u1", "a1", "u2", "a2"]);
    expect(ids(shownPath(tree, null))).toEqual(["u1", "a1b"]);
    expect(ids(shownPath(tree, "deleted"))).toEqual(["u1", "a1b"]);
    expect(shownPath(messageTree([]), null)).toEqual([]);
  });

  it("ends a switched-to branch at the newest version below each message", () => {
    expect(branchEnd(tree, "a1")).toBe("a2b");
    expect(branchEnd(tree, "u2")).toBe("a2");
    expect(branchEnd(tree, "a1b")).toBe("a1b");
  });

  it("names the versions of each shown message that has siblings, oldest first", () => {
    expect(versionsOf(tree, pathTo(tree, "a2b"))).toEqual({ a1: ["a1", "a1b"], u2b: ["u2", "u2b"] });
    expect(versionsOf(tree, pathTo(tree, "a1b"))).toEqual({ a1b: ["a1", "a1b"] });
  });

  it("stops at a cycle instead of walking it for ever", () => {
    const looped = messageTree([node("u1", "a1"), node("a1", "u1")]);
    expect(ids(pathTo(looped, "a1"))).toEqual(["u1", "a1"]);
    expect(branchEnd(looped, "u1")).toBe("a1");
  });
});
