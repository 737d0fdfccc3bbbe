import { chromium } from "@playwright/test";
import type { UIMessage } from "ai";
import { eq } from "drizzle-orm";
import { users } from "@/db/schema";
import { resolveUserContext } from "@/lib/auth/context";
import { ensureDefaultAgent } from "@/lib/chat/agents";
import {
  appendMessages,
  createConversation,
  renameConversation,
  saveDiscovery,
} from "@/lib/chat/conversations";
import { chromiumArgs, chromiumPath } from "../../tests/e2e/chromium";
import { benchEnvironment, buildIfNeeded, type RunningApp, startApp } from "../next-app";
import { createBenchDatabase, requireDatabaseUrl } from "../postgres";
import { createBenchOrganization, createBenchOwner } from "../seed";
import { signIn } from "../sign-in";
import { percentile, printTable, result } from "../stats";

/**
 * Switching conversations from the chat's sidebar against opening the same conversation by a full page load, in
 * Debian's Chromium, on the production build served by `npm start` on PostgreSQL: from the click (or the
 * navigation) to the other conversation's last message shown. Two conversations of 40 messages each, visited in
 * turn BENCH_SWITCHES (20) times each way after a warm-up.
 */
const databaseUrl = requireDatabaseUrl("sidebar");
const SWITCHES = Number(process.env.BENCH_SWITCHES ?? 20);
const WARMUP = 3;
const MESSAGES = 40;
const port = Number(process.env.BENCH_PORT ?? 3235);

const shared = benchEnvironment();
buildIfNeeded();
const database = await createBenchDatabase(databaseUrl, "sidebar");
let app: RunningApp | undefined;
const browser = await chromium.launch({
  executablePath: chromiumPath() ?? undefined,
  args: chromiumArgs,
});

/** A conversation of `MESSAGES` messages whose last answer ends with `last`. */
function history(name: string, last: string): UIMessage[] {
  return Array.from({ length: MESSAGES }, (_, i) => ({
    id: `${name}-${i}`,
    role: i % 2 === 0 ? ("user" as const) : ("assistant" as const),
    parts: [
      {
        type: "text" as const,
        text: i === MESSAGES - 1 ? last : `${name} message ${i}: ${"words of a longer answer ".repeat(12)}`,
      },
    ],
  }));
}

try {
  const { db } = database.handle;
  const { org } = await createBenchOrganization(db, "Bench sidebar");
  const owner = await createBenchOwner(db, org.id);
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, owner.email));
  if (!user) throw new Error("no bench owner");
  const person = await resolveUserContext(db, { userId: user.id, preferredOrgId: org.id });
  if (!person?.userId) throw new Error("the bench owner has no organization");
  const agent = await ensureDefaultAgent(db, org.id);
  const conversations: { id: string; title: string; last: string }[] = [];
  for (const name of ["Alpha", "Beta"]) {
    const conversation = await createConversation(db, { ...person, userId: person.userId }, agent.id);
    // Already started: opening it does not look for integrations again.
    await saveDiscovery(db, conversation.id, { discoveredAt: new Date().toISOString(), integrations: [] });
    const last = `The last answer of ${name}.`;
    await appendMessages(db, conversation, history(name, last));
    // Named after the messages are in: a new conversation takes its first words as its title.
    await renameConversation(db, { ...person, userId: person.userId }, conversation.id, `Bench ${name}`);
    conversations.push({ id: conversation.id, title: `Bench ${name}`, last });
  }

  app = await startApp({ port, databaseUrl: database.url, env: shared });
  const cookie = await signIn(app.origin, owner);
  const context = await browser.newContext({ baseURL: app.origin, viewport: { width: 1366, height: 768 } });
  await context.addCookies(
    cookie.split("; ").map((pair) => {
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: app?.origin ?? "" };
    }),
  );
  const page = await context.newPage();
  // Where a visit's time goes: each request the page makes while it runs, timed from the visit's start.
  type Seen = { url: string; kind: string; start: number; firstByte?: number; end?: number; bytes?: number };
  let seen: Seen[] = [];
  let visitStart = 0;
  const byRequest = new Map<object, Seen>();
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.origin !== app?.origin) return;
    const kind = request.headers().rsc ? "rsc" : request.resourceType();
    const entry: Seen = { url: url.pathname + url.search, kind, start: performance.now() - visitStart };
    byRequest.set(request, entry);
    seen.push(entry);
  });
  page.on("requestfinished", async (request) => {
    const entry = byRequest.get(request);
    if (!entry) return;
    entry.end = performance.now() - visitStart;
    entry.firstByte = entry.start + request.timing().responseStart;
    entry.bytes = (await request.sizes().catch(() => undefined))?.responseBodySize;
  });
  const breakdown = { switched: [] as Seen[][], loaded: [] as Seen[][] };
  const lastShown = (conversation: (typeof conversations)[number]) =>
    page.getByTestId("message-assistant").last().getByText(conversation.last).waitFor({ state: "visible" });

  const switched: number[] = [];
  const loaded: number[] = [];
  await page.goto(`/chat/${conversations[0]?.id}`);
  const [first] = conversations;
  if (first)
    await lastShown(first).catch(async () => {
      throw new Error(`The conversation did not open: ${page.url()} shows "${await page.title()}".`);
    });
  for (let i = 0; i < WARMUP + SWITCHES; i++) {
    for (const target of [conversations[1], conversations[0]]) {
      if (!target) continue;
      // From the sidebar: a click on the other conversation.
      seen = [];
      const started = performance.now();
      visitStart = started;
      await page.getByRole("link", { name: target.title }).first().click();
      await lastShown(target);
      if (i >= WARMUP) {
        switched.push(performance.now() - started);
        breakdown.switched.push(seen);
      }
    }
    for (const target of [conversations[1], conversations[0]]) {
      if (!target) continue;
      // The same conversation by a full page load.
      seen = [];
      const started = performance.now();
      visitStart = started;
      await page.goto(`/chat/${target.id}`, { waitUntil: "commit" });
      await lastShown(target);
      if (i >= WARMUP) {
        loaded.push(performance.now() - started);
        breakdown.loaded.push(seen);
      }
    }
  }

  printTable([
    {
      way: "sidebar click",
      visits: switched.length,
      p50_ms: percentile(switched, 50).toFixed(1),
      p90_ms: percentile(switched, 90).toFixed(1),
    },
    {
      way: "full page load",
      visits: loaded.length,
      p50_ms: percentile(loaded, 50).toFixed(1),
      p90_ms: percentile(loaded, 90).toFixed(1),
    },
  ]);
  // The conversation's own request (the RSC payload on a switch, the document on a full load): when it ended, its
  // size, and how many requests the visit made before its last message showed.
  const main = (visit: Seen[], kind: string) =>
    visit.find((entry) => entry.kind === kind && entry.url.startsWith("/chat/"));
  const phases = (way: string, visits: Seen[][], times: number[], kind: string) => {
    const mains = visits.map((visit) => main(visit, kind));
    const firsts = mains.flatMap((entry) => (entry?.firstByte === undefined ? [] : [entry.firstByte]));
    const ends = mains.flatMap((entry) => (entry?.end === undefined ? [] : [entry.end]));
    const bytes = mains.flatMap((entry) => (entry?.bytes === undefined ? [] : [entry.bytes]));
    const counts = visits.map((visit, k) => visit.filter((entry) => entry.start <= (times[k] ?? 0)).length);
    return {
      way,
      first_byte_p50_ms: percentile(firsts, 50).toFixed(1),
      response_end_p50_ms: percentile(ends, 50).toFixed(1),
      after_response_p50_ms: (percentile(times, 50) - percentile(ends, 50)).toFixed(1),
      response_kb_p50: (percentile(bytes, 50) / 1024).toFixed(1),
      requests_p50: percentile(counts, 50),
    };
  };
  printTable([
    phases("sidebar click", breakdown.switched, switched, "rsc"),
    phases("full page load", breakdown.loaded, loaded, "document"),
  ]);
  const last = breakdown.switched.at(-1) ?? [];
  console.log("Requests of the last switch (ms from the click):");
  for (const entry of last)
    console.log(
      `  ${entry.kind.padEnd(10)} ${entry.start.toFixed(0).padStart(5)}–${entry.end?.toFixed(0) ?? "?"} ${entry.bytes ?? "?"} B ${entry.url}`,
    );
  result("sidebar_switch_ms", percentile(switched, 50));
  result("full_load_ms", percentile(loaded, 50));
  result("sidebar_switch_vs_full_load", percentile(switched, 50) / percentile(loaded, 50));
} finally {
  await browser.close();
  await app?.stop();
  await database.drop();
}
process.exit(0);
