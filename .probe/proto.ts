import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startEverything } from "../tests/fixtures/mcp/start-fixture";

const up = await startEverything("streamableHttp", { port: 3399 });
async function client(version?: string) {
  const t = new StreamableHTTPClientTransport(new URL(up.url));
  if (version) {
    const send = t.send.bind(t);
    t.send = (m: any, o?: any) => {
      if (m.method === "initialize") m.params.protocolVersion = version;
      return send(m, o);
    };
  }
  const c = new Client({ name: "p", version: "1" });
  await c.connect(t);
  return c;
}
const a = await client();
const b = await client("2025-06-18");
async function run(c: Client, n: number) {
  const t: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    await c.callTool({ name: "echo", arguments: { message: "hi" } });
    t.push(performance.now() - s);
  }
  t.sort((x, y) => x - y);
  return t[Math.floor(n / 2)];
}
await run(a, 300); await run(b, 300);
for (let r = 0; r < 3; r++) console.log("11-25", (await run(a, 1000)).toFixed(2), "06-18", (await run(b, 1000)).toFixed(2));
await up.stop(); process.exit(0);
