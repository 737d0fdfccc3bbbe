import { POST as invokeRoute } from "@/app/api/mcp/invoke/route";

/** POST /api/mcp/invoke with an API key, as an external system calls it: the status and the JSON body. */
export async function restInvoke(key: string, toolName: string, params: Record<string, unknown> = {}) {
  const response = await invokeRoute(
    new Request("http://localhost:3000/api/mcp/invoke", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ tool_name: toolName, params }),
    }),
    { params: Promise.resolve({}) },
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
