import { APP, appFetch } from "./app-fetch";

/** A tools/list POST to an MCP endpoint with a bearer credential (or none), as any client sends it. */
export function listTools(path: string, bearer?: string): Promise<Response> {
  return appFetch(`${APP}${path}`, {
    method: "POST",
    headers: {
      ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
}
