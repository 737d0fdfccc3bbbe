import type { OAuthTokenSource } from "./token-source";

/**
 * A fetch that sends the connection's current access token on every request and, when the server answers 401,
 * refreshes once and repeats the request. A second 401 means the connection no longer works.
 */
export function withOAuthBearer(fetchFn: typeof fetch, tokens: OAuthTokenSource): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const send = (token: string) => {
      const headers = new Headers(init?.headers);
      headers.set("authorization", `Bearer ${token}`);
      return fetchFn(input, { ...init, headers });
    };
    const token = await tokens.accessToken();
    const response = await send(token);
    if (response.status !== 401) return response;
    await response.body?.cancel().catch(() => {});
    const fresh = await tokens.afterRejection(token);
    const retried = await send(fresh);
    if (retried.status !== 401) return retried;
    await retried.body?.cancel().catch(() => {});
    return send(await tokens.rejectedAgain(fresh));
  }) as typeof fetch;
}
