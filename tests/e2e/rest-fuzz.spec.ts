import { Agent, request as httpRequest } from "node:http";
import { expect, newAccount, test } from "./fixtures/signed-in";

// One organization for the file: the third test checks what the first one's key reaches.
test.use({ account: newAccount() });

// A small deterministic generator, so a failure can be replayed.
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const nasty: unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  "",
  "x".repeat(10_000),
  "\u0000\uffff",
  "<script>",
  [],
  [null],
  {},
  { __proto__: { polluted: true } },
  { constructor: { prototype: {} } },
  Array.from({ length: 200 }, (_, i) => `n${i}`),
];

let fuzzKey = "";

test("a few hundred malformed requests get 4xx answers, never a 500", async ({ request, createApiKey }) => {
  const key = await createApiKey("fuzz");
  fuzzKey = key;

  const next = random(42);
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)] as T;
  const toolNames = ["node_knowledge_retriever", "knowledge_search", "no_such_tool", "", "x".repeat(300), 7];
  const bodies: (string | Buffer)[] = [];
  for (let i = 0; i < 300; i++) {
    const kind = i % 6;
    if (kind === 0) bodies.push(JSON.stringify({ tool_name: pick(toolNames), params: pick(nasty) }));
    else if (kind === 1)
      bodies.push(
        JSON.stringify({
          tool_name: pick(toolNames),
          params: { node_names: pick(nasty), include_metadata: pick(nasty) },
        }),
      );
    else if (kind === 2)
      bodies.push(
        JSON.stringify({ tool_name: "knowledge_search", params: { query: pick(nasty), limit: pick(nasty) } }),
      );
    else if (kind === 3) bodies.push(JSON.stringify(pick(nasty)));
    else if (kind === 4)
      bodies.push(JSON.stringify({ tool_name: pick(toolNames), params: {}, [`extra${i}`]: pick(nasty) }));
    else
      bodies.push(
        Buffer.from(
          JSON.stringify({ tool_name: "node_knowledge_retriever", params: {} }).slice(
            0,
            Math.floor(next() * 40),
          ),
        ),
      );
  }
  const statuses = new Map<number, number>();
  for (const [i, body] of bodies.entries()) {
    const response = await request.post("/api/mcp/invoke", {
      headers: {
        Authorization: `Bearer ${key}`,
        "content-type": i % 50 === 0 ? "text/plain" : "application/json",
      },
      data: typeof body === "string" ? Buffer.from(body) : body,
    });
    statuses.set(response.status(), (statuses.get(response.status()) ?? 0) + 1);
    expect(response.status(), `request ${i}: ${String(body).slice(0, 200)}`).toBeLessThan(500);
    const json = await response.json();
    if (response.status() >= 400) {
      expect(typeof json.error).toBe("string");
      expect(JSON.stringify(json)).not.toMatch(/at .*\.(ts|js):\d+/);
    }
  }
  expect([...statuses.keys()].some((status) => status >= 400)).toBe(true);
});

test("the OpenAPI document and the API page describe the tools", async ({ page, request, signedIn: _ }) => {
  const document = await (await request.get("/api/openapi.json")).json();
  expect(document.openapi).toBe("3.1.0");
  expect(Object.keys(document.paths)).toEqual(["/api/mcp/tools", "/api/mcp/invoke"]);
  expect(document.components.schemas.Params_node_knowledge_retriever).toMatchObject({
    required: ["node_names"],
  });

  await page.getByRole("link", { name: "API", exact: true }).click();
  await expect(page.getByRole("heading", { name: "API", exact: true })).toBeVisible();
  await expect(page.getByText('"tool_name":"node_knowledge_retriever"')).toBeVisible();
});

test("a key of one organization reaches nothing of another", async ({ request }) => {
  test.skip(!fuzzKey, "needs the key of the first test");
  const headers = { Authorization: `Bearer ${fuzzKey}` };
  // Other organizations of this run have the node router-1 and the Everything integration.
  const tools = (await (await request.get("/api/mcp/tools", { headers })).json()) as {
    tools: { name: string }[];
  };
  expect(tools.tools.map((tool) => tool.name)).toEqual(["node_knowledge_retriever", "knowledge_search"]);
  const invoke = (data: object) => request.post("/api/mcp/invoke", { headers, data });
  const node = await (
    await invoke({ tool_name: "node_knowledge_retriever", params: { node_names: ["router-1"] } })
  ).json();
  expect(node.results).toEqual([{ node_name: "router-1", found: false, knowledge: null }]);
  const search = await (await invoke({ tool_name: "knowledge_search", params: { query: "router" } })).json();
  expect(search.results).toEqual([]);
  const foreign = await invoke({ tool_name: "everything_echo", params: { message: "x" } });
  expect(foreign.status()).toBe(400);
  expect((await foreign.json()).error).toBe("unknown tool");
});

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One request over node:http (any method, any agent), failing after 10 s without an answer. */
function send(
  url: string,
  method: string,
  options: { agent?: Agent; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, agent: options.agent, headers: options.headers });
    req.setTimeout(10_000, () => req.destroy(new Error(`${method} ${url}: no answer within 10 s`)));
    req.on("error", reject);
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.end(options.body);
  });
}

test("a body refused with 413 leaves the keep-alive connection serving the next calls", async ({
  baseURL,
}) => {
  test.skip(!fuzzKey, "needs the key of the first test");
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { authorization: `Bearer ${fuzzKey}`, "content-type": "application/json" };
  const invoke = (body: string | Buffer) =>
    send(`${baseURL}/api/mcp/invoke`, "POST", { agent, headers, body });
  const sockets = new Set<unknown>();
  agent.on("free", (socket) => sockets.add(socket));
  try {
    const large = Buffer.from(
      JSON.stringify({ tool_name: "knowledge_search", params: { query: "x".repeat(1_100_000) } }),
    );
    expect((await invoke(large)).status).toBe(413);
    const found = await invoke(
      JSON.stringify({ tool_name: "knowledge_search", params: { query: "router" } }),
    );
    expect(found.status).toBe(200);
    const wrongTypes = await invoke(
      JSON.stringify({ tool_name: "node_knowledge_retriever", params: { node_names: 7 } }),
    );
    expect(wrongTypes.status).toBe(400);
    expect(JSON.parse(wrongTypes.text).error).toMatch(/node_names/);
    // All of it over the one connection.
    expect(sockets.size).toBe(1);
  } finally {
    agent.destroy();
  }
});

test("TRACE and other methods a route does not serve get a JSON 405 with Allow, never a 500", async ({
  baseURL,
}) => {
  const cases: [string, string, string][] = [
    ["TRACE", "/api/mcp/invoke", "OPTIONS, POST"],
    ["TRACE", "/api/mcp/tools", "GET, HEAD, OPTIONS"],
    ["TRACE", "/api/mcp", "GET, HEAD, OPTIONS, POST, DELETE"],
    ["TRACE", "/api/health", "GET, HEAD, OPTIONS"],
    ["PUT", "/api/mcp/tools", "GET, HEAD, OPTIONS"],
    ["GET", "/api/mcp/invoke", "OPTIONS, POST"],
    ["PATCH", "/api/mcp", "GET, HEAD, OPTIONS, POST, DELETE"],
    ["DELETE", "/api/openapi.json", "GET, HEAD, OPTIONS"],
  ];
  for (const [method, path, allow] of cases) {
    const answer = await send(`${baseURL}${path}`, method, {
      headers: { authorization: `Bearer ${fuzzKey}` },
    });
    expect(answer.status, `${method} ${path}`).toBe(405);
    expect(answer.headers.allow, `${method} ${path}`).toBe(allow);
    expect(JSON.parse(answer.text)).toEqual({
      error: `${method} is not allowed on ${path}; use ${allow}.`,
      code: "method_not_allowed:request",
    });
  }
});
