const WINDOW_MS = 60_000;

/**
 * Hands out an organization's API keys one after the other, each for at most `perKeyPerMinute` requests in a
 * clock minute (the app's fixed rate-limit window), so a benchmark runs with the rate limit at its default (600 a
 * minute a key) and still pays for counting every request, without ever being refused. Keys are used in turn,
 * never spread: at any moment one key's counter takes the writes, as with one busy client.
 */
export class ApiKeyRing {
  private window = -1;
  private index = 0;
  private used = 0;

  constructor(
    private readonly keys: string[],
    private readonly perKeyPerMinute = 500,
  ) {
    if (keys.length === 0) throw new Error("An API key ring needs at least one key.");
  }

  /** The key for the next request. */
  next(now = Date.now()): string {
    const window = Math.floor(now / WINDOW_MS);
    if (window !== this.window) {
      this.window = window;
      this.index = 0;
      this.used = 0;
    }
    if (this.used >= this.perKeyPerMinute) {
      this.index++;
      this.used = 0;
    }
    const key = this.keys[this.index];
    if (key === undefined)
      throw new Error(
        `More than ${this.keys.length * this.perKeyPerMinute} requests in a minute: create more API keys.`,
      );
    this.used++;
    return key;
  }

  /** A fetch for the MCP SDK's transports that sends each request with the next key. */
  readonly fetch = (url: string | URL, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    headers.set("authorization", `Bearer ${this.next()}`);
    return fetch(url, { ...init, headers });
  };
}
