/**
 * Runs conversation start (or a refresh) through its route, not a server action, so a slow server never holds
 * up the page's other actions; resolves to an error message, or undefined when it went through.
 */
export async function startDiscovery(conversationId: string, refresh = false): Promise<string | undefined> {
  try {
    const response = await fetch(`/api/chat/${encodeURIComponent(conversationId)}/discovery`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ refresh }),
    });
    if (response.ok) return undefined;
    const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
    return typeof body?.error === "string" ? body.error : "Could not connect to the agent's integrations.";
  } catch {
    return "Could not reach the server. Check your connection and try again.";
  }
}
