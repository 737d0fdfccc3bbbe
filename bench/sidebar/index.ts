import { writeFileSync } from "node:fs";
import path from "node:path";
import { type CDPSession, chromium } from "@playwright/test";
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
 * turn BENCH_SWITCHES (20) times each way after a warm-up. Each way is timed by the driver and inside the page
 * (from the click event or the navigation's start): the driver's own steps before a click (finding the link,
 * waiting until it can be clicked) are not something a full load waits for, so the ratios in the page compare
 * like with like. A third way points at the row a moment before clicking, as a person does.
 */
const databaseUrl = requireDatabaseUrl("sidebar");
const SWITCHES = Number(process.env.BENCH_SWITCHES ?? 20);
const WARMUP = 3;
const MESSAGES = 40;
const port = Number(process.env.BENCH_PORT ?? 3235);
// How long a person's pointer rests on a row before the click lands.
const POINTING_MS = 200;

const shared = benchEnvironment();
buildIfNeeded();
const database = await createBenchDatabase(databaseUrl, "sidebar");
let app: RunningApp | undefined;
const browser = await chromium.launch({
  executablePath: chromiumPath() ?? undefined,
  args: chromiumArgs,
});

/** The functions the page spent most time in (itself, and with what it called), by script and position. */
/** The part of a CDP CPU profile read here. */
type Profile = {
  nodes: {
    id: number;
    children?: number[];
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  }[];
  samples?: number[];
  timeDeltas?: number[];
};
async function startProfile(profiler: CDPSession) {
  await profiler.send("Profiler.enable");
  await profiler.send("Profiler.setSamplingInterval", { interval: 200 });
  await profiler.send("Profiler.start");
}
function printProfile(profiles: Profile[]) {
  const totals = new Map<string, number>();
  const selfByName = new Map<string, number>();
  for (const profile of profiles) addProfile(profile, totals, selfByName);
  const top = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25)
      .map(([frame, ms]) => `  ${(ms / profiles.length).toFixed(1).padStart(6)} ms  ${frame}`);
  console.log(`Page CPU profile of a switch, self time:\n${top(selfByName).join("\n")}`);
  console.log(`Page CPU profile of a switch, total time:\n${top(totals).join("\n")}`);
}
function addProfile(profile: Profile, totals: Map<string, number>, selfByName: Map<string, number>) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  const deltas = profile.timeDeltas ?? [];
  for (const [k, id] of (profile.samples ?? []).entries())
    self.set(id, (self.get(id) ?? 0) + (deltas[k] ?? 0) / 1000);
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const name = (id: number) => {
    const frame = byId.get(id)?.callFrame;
    if (!frame) return "?";
    return `${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*\/_next\//, "")}:${frame.lineNumber}:${frame.columnNumber}`;
  };
  for (const [id, ms] of self) {
    selfByName.set(name(id), (selfByName.get(name(id)) ?? 0) + ms);
    // Every function on the sample's stack counts it once.
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) onStack.add(name(at));
    for (const entry of onStack) totals.set(entry, (totals.get(entry) ?? 0) + ms);
  }
}

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
  // The same visits timed inside the page, without the driver's own steps (finding the link, checking it can be
  // clicked, polling for the message): from the click event, or from the start of the navigation, to the DOM
  // holding the last message.
  await context.addInitScript(() => {
    const marks = { clickAt: Number.NaN, shown: {} as Record<string, number> };
    Object.assign(window, { benchMarks: marks });
    document.addEventListener("click", () => (marks.clickAt = performance.now()), { capture: true });
    new MutationObserver(() => {
      const last =
        [...document.querySelectorAll('[data-testid="message-assistant"]')].at(-1)?.textContent ?? "";
      const name = /The last answer of (\w+)\./.exec(last)?.[1];
      if (name && !(name in marks.shown)) marks.shown[name] = performance.now();
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  type Marks = { clickAt: number; shown: Record<string, number> };
  const marks = () => page.evaluate(() => (window as unknown as { benchMarks: Marks }).benchMarks);
  // Where a visit's time goes, from the page's Resource Timing: each request it made, in ms from the click (or
  // the navigation's start), and the conversation's own response (the RSC payload, or the HTML document).
  type Seen = { url: string; start: number; firstByte: number; end: number; kb: number };
  const requests = (since: number) =>
    page.evaluate((since) => {
      const seen = performance.getEntriesByType("resource").map((entry) => {
        const timing = entry as PerformanceResourceTiming;
        return {
          url: timing.name.replace(location.origin, ""),
          start: timing.startTime - since,
          firstByte: timing.responseStart - since,
          end: timing.responseEnd - since,
          kb: timing.encodedBodySize / 1024,
        };
      });
      const [document] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
      performance.clearResourceTimings();
      return {
        seen: seen.filter((entry) => entry.start >= 0),
        document: document && {
          url: document.name.replace(location.origin, ""),
          start: 0,
          firstByte: document.responseStart,
          end: document.responseEnd,
          kb: document.encodedBodySize / 1024,
        },
      };
    }, since);
  const breakdown = {
    switched: [] as { main?: Seen; seen: Seen[]; shown: number }[],
    loaded: [] as { main?: Seen; seen: Seen[]; shown: number }[],
  };
  const inPage = { switched: [] as number[], pointed: [] as number[], loaded: [] as number[] };
  const pointed: number[] = [];
  const nameOf = (conversation: (typeof conversations)[number]) => conversation.title.replace("Bench ", "");
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
  // BENCH_PAGE_PROFILE=1 (or a folder to keep them in): a CPU profile of the page over the switches, its heaviest functions printed.
  const profiler = process.env.BENCH_PAGE_PROFILE ? await context.newCDPSession(page) : undefined;
  const profiles: Profile[] = [];
  for (let i = 0; i < WARMUP + SWITCHES; i++) {
    for (const target of [conversations[1], conversations[0]]) {
      if (!target) continue;
      // From the sidebar: a click on the other conversation.
      const started = performance.now();
      await page.evaluate(() => {
        (window as unknown as { benchMarks: Marks }).benchMarks.shown = {};
      });
      if (profiler && i >= WARMUP) await startProfile(profiler);
      await page.getByRole("link", { name: target.title }).first().click();
      await lastShown(target);
      if (profiler && i >= WARMUP) profiles.push((await profiler.send("Profiler.stop")).profile as Profile);
      if (i >= WARMUP) {
        switched.push(performance.now() - started);
        const { clickAt, shown } = await marks();
        const at = (shown[nameOf(target)] ?? Number.NaN) - clickAt;
        inPage.switched.push(at);
        const { seen } = await requests(clickAt);
        const main = seen.find((entry) => entry.url.startsWith(`/chat/${target.id}?_rsc=`));
        breakdown.switched.push({ main, seen, shown: at });
      }
    }
    for (const target of [conversations[1], conversations[0]]) {
      if (!target) continue;
      // From the sidebar as a person clicks: the pointer rests on the row a moment first (timed from the click).
      const link = page.getByRole("link", { name: target.title }).first();
      await page.evaluate(() => {
        (window as unknown as { benchMarks: Marks }).benchMarks.shown = {};
      });
      await link.hover();
      await page.waitForTimeout(POINTING_MS);
      const started = performance.now();
      await link.click();
      await lastShown(target);
      if (i >= WARMUP) {
        pointed.push(performance.now() - started);
        const { clickAt, shown } = await marks();
        inPage.pointed.push((shown[nameOf(target)] ?? Number.NaN) - clickAt);
        await requests(clickAt);
      }
    }
    for (const target of [conversations[1], conversations[0]]) {
      if (!target) continue;
      // The same conversation by a full page load.
      const started = performance.now();
      await page.goto(`/chat/${target.id}`, { waitUntil: "commit" });
      await lastShown(target);
      if (i >= WARMUP) {
        loaded.push(performance.now() - started);
        const at = (await marks()).shown[nameOf(target)] ?? Number.NaN;
        inPage.loaded.push(at);
        const { seen, document } = await requests(0);
        breakdown.loaded.push({ main: document, seen, shown: at });
      }
    }
  }

  if (profiler) printProfile(profiles);
  // A folder given: the profiles are kept there too, to open in the browser's developer tools.
  if (profiler && process.env.BENCH_PAGE_PROFILE !== "1")
    for (const [k, profile] of profiles.entries())
      writeFileSync(
        path.join(process.env.BENCH_PAGE_PROFILE ?? "", `switch-${k}.cpuprofile`),
        JSON.stringify(profile),
      );
  printTable([
    {
      way: "sidebar click",
      visits: switched.length,
      p50_ms: percentile(switched, 50).toFixed(1),
      p90_ms: percentile(switched, 90).toFixed(1),
      in_page_p50_ms: percentile(inPage.switched, 50).toFixed(1),
    },
    {
      way: "sidebar, pointed first",
      visits: pointed.length,
      p50_ms: percentile(pointed, 50).toFixed(1),
      p90_ms: percentile(pointed, 90).toFixed(1),
      in_page_p50_ms: percentile(inPage.pointed, 50).toFixed(1),
    },
    {
      way: "full page load",
      visits: loaded.length,
      p50_ms: percentile(loaded, 50).toFixed(1),
      p90_ms: percentile(loaded, 90).toFixed(1),
      in_page_p50_ms: percentile(inPage.loaded, 50).toFixed(1),
    },
  ]);
  // In the page's own times: when the conversation's response began and ended, what came after it until the
  // last message showed, its size, and how many requests the visit made before the message showed.
  const phases = (way: string, visits: { main?: Seen; seen: Seen[]; shown: number }[]) => {
    const of = (pick: (main: Seen, shown: number) => number) =>
      percentile(
        visits.flatMap(({ main, shown }) => (main ? [pick(main, shown)] : [])),
        50,
      );
    return {
      way,
      response_first_byte_ms: of((main) => main.firstByte).toFixed(1),
      response_end_ms: of((main) => main.end).toFixed(1),
      then_to_shown_ms: of((main, shown) => shown - main.end).toFixed(1),
      response_kb: of((main) => main.kb).toFixed(1),
      requests_before_shown: percentile(
        visits.map(({ seen, shown }) => seen.filter((entry) => entry.start < shown).length),
        50,
      ),
    };
  };
  printTable([phases("sidebar click", breakdown.switched), phases("full page load", breakdown.loaded)]);
  console.log(
    "Requests of the last two switches (ms from the click; the message showed at the `shown` mark):",
  );
  for (const { seen, shown } of breakdown.switched.slice(-2)) {
    for (const entry of seen)
      console.log(
        `  ${entry.start.toFixed(0).padStart(5)}–${entry.end.toFixed(0).padEnd(5)} ${entry.kb.toFixed(1).padStart(6)} kB ${entry.url}`,
      );
    console.log(`  shown at ${shown.toFixed(0)}`);
  }
  result("sidebar_switch_ms", percentile(switched, 50));
  result("full_load_ms", percentile(loaded, 50));
  result("sidebar_switch_vs_full_load", percentile(switched, 50) / percentile(loaded, 50));
  result("sidebar_switch_in_page_ms", percentile(inPage.switched, 50));
  result("sidebar_pointed_switch_in_page_ms", percentile(inPage.pointed, 50));
  result("full_load_in_page_ms", percentile(inPage.loaded, 50));
  result(
    "sidebar_pointed_switch_vs_full_load_in_page",
    percentile(inPage.pointed, 50) / percentile(inPage.loaded, 50),
  );
  result(
    "sidebar_switch_vs_full_load_in_page",
    percentile(inPage.switched, 50) / percentile(inPage.loaded, 50),
  );
} finally {
  await browser.close();
  await app?.stop();
  await database.drop();
}
process.exit(0);
