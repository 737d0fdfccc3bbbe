import { request } from "undici";
import type { ApiKeyRing } from "../api-key-ring";
import { percentile } from "../stats";

const PROTOCOL_VERSION = "2025-11-25";

interface RawSession {
  url: string;
  key: string;
  id: string;
  tool: string;
}

/** One POST of a session, as a 2025-11-25 client sends it; the answer read whole (JSON or an event stream). */
async function post(session: Omit<RawSession, "id"> & { id?: string }, message: object): Promise<string> {
  const response = await request(session.url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${session.key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": PROTOCOL_VERSION,
      ...(session.id ? { "mcp-session-id": session.id } : {}),
    },
    body: JSON.stringify(message),
  });
  const text = await response.body.text();
  if (response.statusCode >= 300)
    throw new Error(`${JSON.stringify(message).slice(0, 80)} answered ${response.statusCode}: ${text}`);
  return response.headers["mcp-session-id"]?.toString() ?? text;
}

async function open(url: string, key: string, tool: string): Promise<RawSession> {
  const id = await post(
    { url, key, tool },
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: "switchboard-bench", version: "1.0.0" },
      },
    },
  );
  const session = { url, key, id, tool };
  await post(session, { jsonrpc: "2.0", method: "notifications/initialized" });
  return session;
}

let nextId = 1;
async function callOnce(session: RawSession, origin?: string): Promise<void> {
  const url = origin ? `${origin}${new URL(session.url).pathname}` : session.url;
  const answer = await post(
    { ...session, url },
    {
      jsonrpc: "2.0",
      id: nextId++,
      method: "tools/call",
      params: { name: session.tool, arguments: { message: "hi" } },
    },
  );
  if (!answer.includes('"result"')) throw new Error(`tools/call answered ${answer.slice(0, 300)}`);
}

/**
 * `count` sessions opened in turn on each origin and endpoint, each making one call and then left idle, and the
 * instances' memory (rssMb, summed) before and after, after a collection has had time to run. Then the first call of
 * `resumed` of them on an instance that did not open them, beside each one's next call there.
 */
export async function openIdleSessions(options: {
  origins: string[];
  endpoints: string[];
  tools: string[];
  count: number;
  resumed: number;
  keys: ApiKeyRing;
  rssMb: () => number;
}) {
  const { origins, endpoints, tools } = options;
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const rssBeforeMb = options.rssMb();
  const sessions: { session: RawSession; origin: number }[] = [];
  for (let i = 0; i < options.count; i++) {
    const origin = i % origins.length;
    const endpoint = Math.floor(i / origins.length) % endpoints.length;
    const session = await open(
      `${origins[origin]}${endpoints[endpoint]}`,
      options.keys.next(),
      tools[endpoint] as string,
    );
    await callOnce(session);
    sessions.push({ session, origin });
  }
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const rssMb = options.rssMb() - rssBeforeMb;

  const resumeTimes: number[] = [];
  const nextTimes: number[] = [];
  for (const { session, origin } of sessions.slice(0, options.resumed)) {
    const elsewhere = origins[(origin + 1) % origins.length] as string;
    let started = performance.now();
    await callOnce(session, elsewhere);
    resumeTimes.push(performance.now() - started);
    started = performance.now();
    await callOnce(session, elsewhere);
    nextTimes.push(performance.now() - started);
  }
  return {
    rssBeforeMb,
    rssMb,
    resumeP50: percentile(resumeTimes, 50),
    nextP50: percentile(nextTimes, 50),
  };
}
