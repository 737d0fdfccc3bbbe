import type { UIMessage } from "ai";
import { z } from "zod";

/** A stored message with the message it follows; messages with the same parent are versions of each other. */
export interface StoredMessage {
  message: UIMessage;
  parentId: string | null;
}

/** A conversation's messages as a tree, in the order they were stored. */
export interface MessageTree {
  byId: Map<string, StoredMessage>;
  /** The children of each message (key null: the first messages), oldest first. */
  children: Map<string | null, StoredMessage[]>;
  /** The message stored last, if any. */
  newest?: StoredMessage;
}

/** A conversation's stored messages as a tree, with the branch shown and the versions of its messages. */
export interface ConversationBranches {
  tree: MessageTree;
  shown: UIMessage[];
  versions: MessageVersions;
}

/** For each shown message that has other versions: the ids of all its versions, oldest first. */
export type MessageVersions = Record<string, string[]>;

/** The tree of messages given oldest first. */
export function messageTree(stored: StoredMessage[]): MessageTree {
  const byId = new Map<string, StoredMessage>();
  const children = new Map<string | null, StoredMessage[]>();
  for (const node of stored) {
    byId.set(node.message.id, node);
    const siblings = children.get(node.parentId) ?? [];
    siblings.push(node);
    children.set(node.parentId, siblings);
  }
  return { byId, children, newest: stored.at(-1) };
}

/** The messages from the first one down to `id` (empty for null or an unknown id). */
export function pathTo(tree: MessageTree, id: string | null): UIMessage[] {
  const path: UIMessage[] = [];
  const seen = new Set<string>();
  let node = id === null ? undefined : tree.byId.get(id);
  // A cycle cannot be written through this module; the guard keeps a damaged row from hanging a request.
  while (node && !seen.has(node.message.id)) {
    seen.add(node.message.id);
    path.unshift(node.message);
    node = node.parentId === null ? undefined : tree.byId.get(node.parentId);
  }
  return path;
}

/** The end of the branch through `id`: below each message, its newest version (as a chat shows a switched branch). */
export function branchEnd(tree: MessageTree, id: string): string {
  let current = id;
  const seen = new Set<string>([current]);
  for (;;) {
    const next = tree.children.get(current)?.at(-1)?.message.id;
    if (!next || seen.has(next)) return current;
    seen.add(next);
    current = next;
  }
}

/** The branch shown: the path to the stored choice, or to the newest message when there is none. */
export function shownPath(tree: MessageTree, shownId: string | null): UIMessage[] {
  const end = shownId !== null && tree.byId.has(shownId) ? shownId : (tree.newest?.message.id ?? null);
  return pathTo(tree, end);
}

/** The versions of each message on `path` that has siblings. */
export function versionsOf(tree: MessageTree, path: UIMessage[]): MessageVersions {
  const versions: MessageVersions = {};
  for (const message of path) {
    const parentId = tree.byId.get(message.id)?.parentId ?? null;
    const siblings = tree.children.get(parentId) ?? [];
    if (siblings.length > 1) versions[message.id] = siblings.map((node) => node.message.id);
  }
  return versions;
}

/** Messages stored one after another, with the last one shown. */
export function singleBranch(messages: UIMessage[]): ConversationBranches {
  const tree = messageTree(
    messages.map((message, index) => ({ message, parentId: messages[index - 1]?.id ?? null })),
  );
  return { tree, shown: messages, versions: {} };
}

/** The answer to showing another version: the branch now shown and its versions, as the browser reads it. */
export const shownBranchSchema = z.object({
  messages: z.array(
    z.looseObject({
      id: z.string(),
      role: z.enum(["system", "user", "assistant"]),
      parts: z.array(z.looseObject({ type: z.string() })),
    }),
  ),
  versions: z.record(z.string(), z.array(z.string())),
});
