import { startEverything } from "../tests/fixtures/mcp/start-fixture";
const up = await startEverything("streamableHttp", { port: 3399 });
async function session(version: string) {
  const r = await fetch(up.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "x", version: "1" } } }) });
  await r.text();
  const sid = r.headers.get("mcp-session-id")!;
  const h = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sid, "mcp-protocol-version": version };
  await (await fetch(up.url, { method: "POST", headers: h, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
  let id = 1;
  return async () => {
    const res = await fetch(up.url, { method: "POST", headers: h, body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: "echo", arguments: { message: "hi" } } }) });
    return res.text();
  };
}
const a = await session("2025-11-25"); const b = await session("2025-06-18");
console.log(JSON.stringify(await a())); console.log(JSON.stringify(await b()));
async function run(f: () => Promise<string>, n: number) { const t: number[] = []; for (let i = 0; i < n; i++) { const s = performance.now(); await f(); t.push(performance.now() - s); } t.sort((x, y) => x - y); return t[n >> 1]; }
await run(a, 300); await run(b, 300);
for (let r = 0; r < 3; r++) console.log("11-25", (await run(a, 1000)).toFixed(2), "06-18", (await run(b, 1000)).toFixed(2));
await up.stop(); process.exit(0);
