import { APICallError, RetryError } from "ai";

/** What the chat tells the user when the model cannot answer: the cause and where to fix it, no internals. */
export function describeModelError(error: unknown, model: { name: string; baseURL?: string }): string {
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  const where = model.baseURL ? new URL(model.baseURL).host : "OpenAI";
  if (APICallError.isInstance(cause)) {
    const status = cause.statusCode;
    if (status === 401 || status === 403)
      return `The model server at ${where} refused the API key (HTTP ${status}). Check OPENAI_API_KEY.`;
    if (status === 404)
      return `The model server at ${where} has no model "${model.name}" (HTTP 404). Check the agent's model or CHAT_MODEL.`;
    if (status === 429)
      return `The model server at ${where} is limiting requests (HTTP 429). Try again in a moment.`;
    if (status !== undefined && status >= 500)
      return `The model server at ${where} failed (HTTP ${status}). Try again, or check the server.`;
    if (status !== undefined)
      return `The model server at ${where} rejected the request (HTTP ${status}). Check the model settings.`;
    return `Could not reach the model server at ${where}. Check OPENAI_BASE_URL and that the server is running.`;
  }
  if (
    cause instanceof Error &&
    /fetch failed|ECONNREFUSED|ENOTFOUND|ETIMEDOUT/i.test(`${cause.message} ${String(cause.cause)}`)
  )
    return `Could not reach the model server at ${where}. Check OPENAI_BASE_URL and that the server is running.`;
  return "The model could not answer. Check the model settings, or try again.";
}
