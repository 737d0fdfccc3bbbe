/** Why an exchange with an authorization server failed, in words an admin can act on; short and without bodies. */
export function oauthFailureReason(error: unknown): string {
  if (error instanceof Error && error.name === "TimeoutError") return "the server did not answer in time";
  const message = error instanceof Error ? error.message : String(error);
  const status = /^HTTP (\d{3})\b/.exec(message)?.[1];
  if (status)
    return `it answered HTTP ${status} where OAuth was expected; check that the server supports OAuth`;
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}
