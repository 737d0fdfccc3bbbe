import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type Progress,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

export type Revision = "2025-11-25" | "2026-07-28";
type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;
type Answers = {
  elicit?: (message: string) => Record<string, unknown>;
  sample?: (prompt: string) => string;
  roots?: { uri: string; name?: string }[];
};

/**
 * What the tests ask of an MCP client, the same for the SDK's 1.x client (a 2025-11-25 session) and its v2 client
 * pinned to 2026-07-28 (stateless, questions as input_required, changes on a listen stream).
 */
export interface RevisionClient {
  revision: Revision;
  listTools(): Promise<{ name: string; execution?: unknown }[]>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    onprogress?: (progress: Progress) => void,
  ): Promise<{ content?: unknown[]; isError?: boolean; structuredContent?: unknown }>;
  listResources(): Promise<{ uri: string }[]>;
  readResource(uri: string): Promise<{ contents: { uri: string; text?: string; blob?: string }[] }>;
  listPrompts(): Promise<{ name: string }[]>;
  getPrompt(name: string, args: Record<string, string>): Promise<{ messages: { content: unknown }[] }>;
  complete(prompt: string, argument: { name: string; value: string }): Promise<string[]>;
  /** Resolves at the next tools/list_changed the server tells this client (a session's GET stream or a listen stream). */
  toolsChanged(): Promise<void>;
  /** Resolves with the URI of the next update of this resource the server tells this client. */
  resourceUpdated(uri: string): Promise<string>;
  close(): Promise<void>;
}

const textOfPrompt = (params: { messages: { content: unknown }[] }) => {
  const content = params.messages[0]?.content as { type?: string; text?: string } | undefined;
  return content?.type === "text" ? (content.text ?? "") : "";
};

export async function connectRevision(
  revision: Revision,
  url: string,
  fetch: Fetch,
  key: string,
  answers: Answers = {},
): Promise<RevisionClient> {
  const capabilities = {
    ...(answers.elicit ? { elicitation: {} } : {}),
    ...(answers.sample ? { sampling: {} } : {}),
    ...(answers.roots ? { roots: {} } : {}),
  };
  const requestInit = { headers: { Authorization: `Bearer ${key}` } };
  if (revision === "2025-11-25") {
    const client = new LegacyClient({ name: "revisions-test", version: "1.0.0" }, { capabilities });
    if (answers.elicit) {
      const elicit = answers.elicit;
      client.setRequestHandler(ElicitRequestSchema, async (request) => ({
        action: "accept",
        content: elicit(request.params.message) as Record<string, string>,
      }));
    }
    if (answers.sample) {
      const sample = answers.sample;
      client.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
        role: "assistant",
        model: "test-model",
        content: { type: "text", text: sample(textOfPrompt(request.params)) },
      }));
    }
    if (answers.roots) {
      const roots = answers.roots;
      client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots }));
    }
    await client.connect(new LegacyTransport(new URL(url), { fetch, requestInit }));
    return {
      revision,
      listTools: async () => (await client.listTools()).tools,
      callTool: async (name, args, onprogress) =>
        (await client.callTool(
          { name, arguments: args },
          undefined,
          onprogress ? { onprogress } : undefined,
        )) as {
          content?: unknown[];
        },
      listResources: async () => (await client.listResources()).resources,
      readResource: (uri) => client.readResource({ uri }),
      listPrompts: async () => (await client.listPrompts()).prompts,
      getPrompt: (name, args) => client.getPrompt({ name, arguments: args }),
      complete: async (prompt, argument) =>
        (await client.complete({ ref: { type: "ref/prompt", name: prompt }, argument })).completion.values,
      toolsChanged: () =>
        new Promise((resolve) =>
          client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
        ),
      async resourceUpdated(uri) {
        const updated = new Promise<string>((resolve) =>
          client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
            resolve(notification.params.uri),
          ),
        );
        await client.subscribeResource({ uri });
        return updated;
      },
      close: () => client.close(),
    };
  }
  const client = new ModernClient(
    { name: "revisions-test", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities },
  );
  if (answers.elicit) {
    const elicit = answers.elicit;
    client.setRequestHandler("elicitation/create", async (request) => ({
      action: "accept",
      content: elicit((request.params as { message: string }).message) as Record<string, string>,
    }));
  }
  if (answers.sample) {
    const sample = answers.sample;
    client.setRequestHandler("sampling/createMessage", async (request) => ({
      role: "assistant",
      model: "test-model",
      content: { type: "text", text: sample(textOfPrompt(request.params)) },
    }));
  }
  if (answers.roots) {
    const roots = answers.roots;
    client.setRequestHandler("roots/list", async () => ({ roots }));
  }
  await client.connect(new ModernTransport(new URL(url), { fetch, requestInit }));
  if (client.getProtocolEra() !== "modern") throw new Error("the client did not speak 2026-07-28");
  const subscriptions: { close(): Promise<void> }[] = [];
  return {
    revision,
    listTools: async () => (await client.listTools(undefined, { cacheMode: "bypass" })).tools,
    callTool: (name, args, onprogress) =>
      client.callTool({ name, arguments: args }, onprogress ? { onprogress } : undefined),
    listResources: async () => (await client.listResources()).resources,
    readResource: (uri) => client.readResource({ uri }),
    listPrompts: async () => (await client.listPrompts()).prompts,
    getPrompt: (name, args) => client.getPrompt({ name, arguments: args }),
    complete: async (prompt, argument) =>
      (await client.complete({ ref: { type: "ref/prompt", name: prompt }, argument })).completion.values,
    async toolsChanged() {
      const changed = new Promise<void>((resolve) =>
        client.setNotificationHandler("notifications/tools/list_changed", () => resolve()),
      );
      subscriptions.push(await client.listen({ toolsListChanged: true }));
      return changed;
    },
    async resourceUpdated(uri) {
      const updated = new Promise<string>((resolve) =>
        client.setNotificationHandler("notifications/resources/updated", (notification) =>
          resolve(notification.params.uri),
        ),
      );
      subscriptions.push(await client.listen({ resourceSubscriptions: [uri] }));
      return updated;
    },
    async close() {
      await Promise.all(subscriptions.map((subscription) => subscription.close()));
      await client.close();
    },
  };
}
