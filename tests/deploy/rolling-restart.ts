/**
 * The deployment, proved: the image built from the Dockerfile, its migration job, two instances behind HAProxy
 * with deploy/haproxy.cfg, restarted one at a time while an MCP client (the SDK's) works in a session with a
 * long-running call and REST clients call tools. Checks that the session goes on, no request fails, and the
 * usage records equal the calls answered. Containers run on the host network, beside the host's PostgreSQL.
 *
 *   DATABASE_URL=postgres://… npx tsx tests/deploy/rolling-restart.ts
 */
import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import postgres from "postgres";
import { z } from "zod";
import {
  answers,
  buildImage,
  docker,
  envArgs,
  ready,
  removeInstance,
  startInstance,
  startLoadBalancer,
  waitFor,
} from "./containers";

const IMAGE = process.env.DEPLOY_IMAGE ?? "switchboard:deploy-test";
const BASE_PORT = Number(process.env.DEPLOY_PORT ?? 3800);
const LB_PORT = BASE_PORT;
const INSTANCES: [{ name: string; port: number }, { name: string; port: number }] = [
  { name: "switchboard-deploy-app1", port: BASE_PORT + 1 },
  { name: "switchboard-deploy-app2", port: BASE_PORT + 2 },
];
const REST_CLIENTS = 4;

function log(message: string) {
  console.log(`[deploy] ${message}`);
}

/** The app's database for this test, made empty; the containers reach it over the host network. */
async function freshDatabase(): Promise<string> {
  const admin = process.env.DATABASE_URL;
  if (!admin) throw new Error("DATABASE_URL must name a PostgreSQL server to make the test's database on.");
  const url = new URL(admin);
  const sql = postgres(admin, { max: 1, onnotice: () => {} });
  await sql.unsafe("drop database if exists switchboard_deploy with (force)");
  await sql.unsafe(`create database switchboard_deploy owner "${decodeURIComponent(url.username)}"`);
  await sql.end();
  url.pathname = "/switchboard_deploy";
  return url.toString();
}

function appEnv(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: "deploy-test-secret-that-is-long-enough-0123456789",
    AUTH_URL: `http://127.0.0.1:${LB_PORT}`,
    AUTH_TRUST_HOST: "true",
    MCP_DEMO_SERVERS: "true",
    LOG_LEVEL: "warn",
    HEALTH_CHECK_INTERVAL_MS: "0",
    SHUTDOWN_DRAIN_MS: "3000",
    // The load here is far past a key's default 600 a minute; the limit has tests of its own.
    API_RATE_LIMIT_PER_MINUTE: "0",
  };
}

function runOnce(databaseUrl: string, ...command: string[]): string {
  return docker("run", "--rm", "--network", "host", ...envArgs(appEnv(databaseUrl)), IMAGE, ...command);
}

// What REST answers for a tool call: the MCP result itself.
const invokeAnswer = z.object({ content: z.array(z.unknown()).min(1) }).passthrough();

/**
 * Clients sending one request after another through the load balancer until told to stop; `accepts` says whether
 * an answer is a good one. Counts the good answers and keeps what went wrong otherwise.
 */
function steadyLoad(
  clients: number,
  request: (client: number, n: number) => Promise<Response>,
  accepts: (body: string) => boolean,
) {
  let running = true;
  const counts = { ok: 0, failed: 0, failures: [] as string[] };
  const loops = Array.from({ length: clients }, async (_, client) => {
    for (let n = 0; running; n++) {
      try {
        const response = await request(client, n);
        const body = await response.text();
        if (response.ok && accepts(body)) counts.ok++;
        else {
          counts.failed++;
          counts.failures.push(`${response.status} ${body.slice(0, 200)}`);
        }
      } catch (error) {
        counts.failed++;
        counts.failures.push(String(error));
      }
    }
  });
  return {
    counts,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** REST clients calling a tool. */
const restLoad = (apiKey: string, tool: string) =>
  steadyLoad(
    REST_CLIENTS,
    (client, n) =>
      fetch(`http://127.0.0.1:${LB_PORT}/api/mcp/invoke`, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ tool_name: tool, params: { message: `client ${client} call ${n}` } }),
      }),
    (body) => invokeAnswer.safeParse(JSON.parse(body)).success,
  );

const CHAT_USER = { email: "chat@deploy.test", password: "a long deploy-test password" };

/** Signs in through Auth.js's own routes, as a browser would; answers the session cookie. */
async function signIn(): Promise<string> {
  const base = `http://127.0.0.1:${LB_PORT}`;
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const cookies = csrf.headers.getSetCookie().map((cookie) => cookie.split(";")[0]);
  const { csrfToken } = z.object({ csrfToken: z.string() }).parse(await csrf.json());
  const response = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies.join("; ") },
    body: new URLSearchParams({ csrfToken, ...CHAT_USER }),
  });
  const session = response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0] as string)
    .find((cookie) => cookie.startsWith("authjs.session-token="));
  if (!session) throw new Error(`signing in failed: ${response.status}`);
  return session;
}

/** A person chatting: one turn after another in a conversation, each read to its end. */
const chatLoad = (cookie: string, conversationId: string) =>
  steadyLoad(
    1,
    (_, n) =>
      fetch(`http://127.0.0.1:${LB_PORT}/api/chat`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({
          id: conversationId,
          message: { id: `m${n}`, role: "user", parts: [{ type: "text", text: `message ${n}` }] },
        }),
      }),
    (body) => body.includes('"type":"finish"'),
  );

/** Restarts each instance in turn, as an orchestrator would: stop (SIGTERM, then the drain), start, ready. */
async function rollingRestart(during: () => Promise<void>) {
  for (const instance of INSTANCES) {
    log(`restarting ${instance.name}`);
    const started = Date.now();
    const restarted = new Promise<void>((resolve, reject) => {
      const restart = spawn("docker", ["restart", "-t", "60", instance.name], { stdio: "ignore" });
      restart.on("exit", (code) =>
        code === 0 ? resolve() : reject(new Error(`docker restart exited ${code}`)),
      );
    });
    await during();
    await restarted;
    log(`${instance.name} stopped and started again after ${Date.now() - started} ms`);
    await ready(instance);
    log(`${instance.name} ready again after ${Date.now() - started} ms`);
    // The load balancer takes it back after two good checks.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
  }
}

async function main() {
  log("image");
  buildImage(IMAGE);
  log(`image size: ${docker("image", "inspect", IMAGE, "--format", "{{.Size}}")} bytes`);

  const databaseUrl = await freshDatabase();
  log("migration job");
  runOnce(databaseUrl, "npm", "run", "--silent", "db:migrate");
  // The operator's set-up by the CLI, in one container: each container is a copy of the image on this Docker.
  const cli = (...args: string[]) => `npm run --silent cli -- ${args.map((arg) => `'${arg}'`).join(" ")}`;
  const setUp = [
    cli("org:create", "deploy", "--name", "Deploy"),
    // A busy machine starts the Everything server slowly; its first discovery is given time.
    cli("integration:add", "--org", "deploy", "--catalog", "everything", "--timeout-ms", "60000"),
    cli("user:create", "--org", "deploy", "--email", CHAT_USER.email, "--password", CHAT_USER.password),
    cli("apikey:create", "--org", "deploy", "--name", "Load", "--json"),
  ].join(" && ");
  const printed = runOnce(databaseUrl, "sh", "-c", setUp).split("\n");
  const created = z
    .object({ key: z.string() })
    .passthrough()
    .parse(JSON.parse(printed.at(-1) ?? ""));

  const bootStarted = Date.now();
  for (const instance of INSTANCES) startInstance(IMAGE, instance, appEnv(databaseUrl));
  for (const instance of INSTANCES) await ready(instance);
  log(`instances ready in ${Date.now() - bootStarted} ms`);
  const stopBalancer = startLoadBalancer(LB_PORT, INSTANCES);
  const cleanUp = () => {
    stopBalancer();
    for (const instance of INSTANCES) removeInstance(instance);
  };
  try {
    await waitFor("the load balancer", answers(`http://127.0.0.1:${LB_PORT}/api/ready`));
    await check(databaseUrl, created.key);
  } finally {
    if (!process.env.DEPLOY_KEEP) cleanUp();
  }
}

async function check(databaseUrl: string, apiKey: string) {
  const client = new Client({ name: "rolling-restart", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${LB_PORT}/api/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
  });
  await client.connect(transport);
  const sessionId = transport.sessionId;
  // Listed once the instances' catalogs hold the integration's discovered tools.
  let tools: { name: string }[] = [];
  await waitFor(
    "the Everything server's tools",
    async () => {
      tools = (await client.listTools()).tools;
      return tools.some((tool) => tool.name.endsWith("echo"));
    },
    90_000,
  ).catch(() => {});
  const echo = tools.find((tool) => tool.name.endsWith("echo"))?.name;
  const slow = tools.find((tool) => tool.name.endsWith("trigger-long-running-operation"))?.name;
  if (!echo || !slow)
    throw new Error(`the Everything server's tools are not listed: ${tools.map((t) => t.name)}`);
  log(`session ${sessionId}; calling ${echo} and ${slow}`);

  // A conversation of the chat user's (with the organization's default agent), as the chat page starts one.
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const [conversation] = await sql<{ id: string }[]>`
    insert into conversations (organization_id, user_id)
    select m.organization_id, u.id from users u join memberships m on m.user_id = u.id
    where u.email = ${CHAT_USER.email} returning id`;
  if (!conversation) throw new Error("no conversation made");
  const chat = chatLoad(await signIn(), conversation.id);

  let mcpCalls = 0;
  const load = restLoad(apiKey, echo);
  const longCalls: Promise<unknown>[] = [];
  await rollingRestart(async () => {
    // A call that outlasts the drain, started as the instance is told to stop.
    longCalls.push(
      client.callTool({ name: slow, arguments: { duration: 6, steps: 3 } }, undefined, { timeout: 120_000 }),
    );
    mcpCalls++;
    for (let i = 0; i < 5; i++) {
      const result = await client.callTool({ name: echo, arguments: { message: `in session ${i}` } });
      if (result.isError) throw new Error(`a call in the session failed: ${JSON.stringify(result)}`);
      mcpCalls++;
    }
  });
  const longResults = await Promise.all(longCalls);
  for (const result of longResults)
    if ((result as { isError?: boolean }).isError)
      throw new Error(`a long call failed: ${JSON.stringify(result)}`);
  await load.stop();
  await chat.stop();
  const after = await client.callTool({ name: echo, arguments: { message: "after both restarts" } });
  mcpCalls++;
  if (after.isError || transport.sessionId !== sessionId)
    throw new Error("the session did not survive the restarts");
  await client.close();

  const calls = load.counts.ok + mcpCalls;
  log(
    `REST calls answered: ${load.counts.ok}, failed: ${load.counts.failed}; MCP calls in the session: ${mcpCalls}`,
  );
  if (load.counts.failed > 0)
    throw new Error(`REST calls failed:\n${load.counts.failures.slice(0, 10).join("\n")}`);

  log(`chat turns answered: ${chat.counts.ok}, failed: ${chat.counts.failed}`);
  if (chat.counts.failed > 0)
    throw new Error(`chat turns failed:\n${chat.counts.failures.slice(0, 10).join("\n")}`);

  // Usage is written about every half second, and by each instance as it stops.
  let recorded = 0;
  let messages = 0;
  try {
    await waitFor(
      "every call recorded",
      async () => {
        const [row] = await sql<
          { n: string }[]
        >`select count(*) as n from usage_records where surface <> 'chat'`;
        recorded = Number(row?.n);
        return recorded >= calls;
      },
      10_000,
    ).catch(() => {});
    const [row] = await sql<{ n: string }[]>`
      select count(*) as n from chat_messages where conversation_id = ${conversation.id}`;
    messages = Number(row?.n);
  } finally {
    await sql.end();
  }
  log(`usage records: ${recorded} for ${calls} calls; chat messages stored: ${messages}`);
  if (recorded !== calls)
    throw new Error(`usage records (${recorded}) differ from the calls answered (${calls})`);
  // Each turn keeps the person's message and the answer.
  if (messages !== 2 * chat.counts.ok)
    throw new Error(`${messages} chat messages stored for ${chat.counts.ok} turns answered`);
  log("passed");
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
