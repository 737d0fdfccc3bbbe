import http from "node:http";
import { startEverything } from "../tests/fixtures/mcp/start-fixture";
const up = await startEverything("streamableHttp", { port: 3399 });
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function post(headers: Record<string,string>, body: string): Promise<{ headers: http.IncomingHttpHeaders; chunks: [number, string][]; t0: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now(); const chunks: [number, string][] = [];
    const req = http.request(up.url, { method: "POST", agent, headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
      res.setEncoding("utf8");
      res.on("data", (c) => chunks.push([performance.now() - t0, c]));
      res.on("end", () => resolve({ headers: res.headers, chunks, t0 }));
    });
    req.on("error", reject); req.end(body);
  });
}
async function session(version: string) {
  const r = await post({}, JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "x", version: "1" } } }));
  const sid = r.headers["mcp-session-id"] as string;
  const h = { "mcp-session-id": sid, "mcp-protocol-version": version };
  await post(h, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  let id = 1;
  return () => post(h, JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: "echo", arguments: { message: "hi" } } }));
}
const a = await session("2025-11-25"); const b = await session("2025-06-18");
for (const [name, f] of [["11-25", a], ["06-18", b]] as const) {
  for (let i = 0; i < 300; i++) await f();
  const firsts: number[] = [], lasts: number[] = [], counts: number[] = [];
  for (let i = 0; i < 500; i++) { const r = await f(); firsts.push(r.chunks[0][0]); lasts.push(r.chunks.at(-1)![0]); counts.push(r.chunks.length); }
  const med = (x: number[]) => x.sort((p, q) => p - q)[x.length >> 1].toFixed(2);
  console.log(name, "first", med(firsts), "last", med(lasts), "chunks", med(counts));
}
await up.stop(); process.exit(0);
