import { type AuthChallenge, challengeOf } from "./authorization";

export interface ChallengeAuthorizer {
  /** The access token to send, if there is one yet. */
  accessToken(): Promise<string | undefined>;
  /** Runs an authorization for the challenge (a person, or an unattended test server, answers it). */
  authorize(challenge: AuthChallenge): Promise<void>;
}

// A server that keeps challenging after this many grants will not be satisfied by another.
const MAX_AUTHORIZATIONS = 3;

/**
 * A fetch for a client with someone at hand: whenever the server challenges (401, or 403 for too little scope,
 * on any request), it authorizes and repeats the request, a few times at most. Each authorization asks for the
 * scopes asked for before as well as the challenge's (SEP-2350): a grant for a step-up keeps what the first had.
 */
export function authorizeOnChallenge(fetchFn: typeof fetch, authorizer: ChallengeAuthorizer): typeof fetch {
  let authorizations = 0;
  const requested = new Set<string>();
  const withEarlierScopes = (challenge: AuthChallenge): AuthChallenge => {
    for (const scope of challenge.scope?.split(" ") ?? []) if (scope) requested.add(scope);
    return requested.size > 0 ? { ...challenge, scope: [...requested].join(" ") } : challenge;
  };
  return (async (input: string | URL | Request, init?: RequestInit) => {
    for (;;) {
      const headers = new Headers(init?.headers);
      const token = await authorizer.accessToken();
      if (token) headers.set("authorization", `Bearer ${token}`);
      const response = await fetchFn(input, { ...init, headers });
      const challenge = challengeOf(response);
      if (!challenge || authorizations >= MAX_AUTHORIZATIONS) return response;
      authorizations++;
      await response.body?.cancel().catch(() => {});
      await authorizer.authorize(withEarlierScopes(challenge));
    }
  }) as typeof fetch;
}
