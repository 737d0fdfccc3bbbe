import { Pool } from "undici";

export interface LoadResult {
  requests: number;
  /** Answers other than 200, and requests that failed outright. */
  errors: number;
  /** How many answers had each status (0: no answer). */
  statuses: Record<number, number>;
  seconds: number;
  rps: number;
  latenciesMs: number[];
}

/**
 * Sends requests with `connections` of them always in flight for `seconds`, on keep-alive connections, like
 * autocannon: a POST of `body` when there is one, else a GET.
 */
export async function runLoad(options: {
  url: string;
  body?: string;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
}): Promise<LoadResult> {
  const url = new URL(options.url);
  const pool = new Pool(url.origin, { connections: options.connections, pipelining: 1 });
  const latenciesMs: number[] = [];
  const statuses: Record<number, number> = {};
  const count = (status: number) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
  };
  const request =
    options.body === undefined
      ? { method: "GET" as const, path: url.pathname + url.search, headers: options.headers }
      : {
          method: "POST" as const,
          path: url.pathname + url.search,
          headers: { "content-type": "application/json", ...options.headers },
          body: options.body,
        };
  const deadline = performance.now() + options.seconds * 1000;
  const started = performance.now();
  const worker = async () => {
    while (performance.now() < deadline) {
      const begin = performance.now();
      try {
        const response = await pool.request(request);
        await response.body.text();
        count(response.statusCode);
      } catch {
        count(0);
      }
      latenciesMs.push(performance.now() - begin);
    }
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  const errors = latenciesMs.length - (statuses[200] ?? 0);
  return {
    requests: latenciesMs.length,
    errors,
    statuses,
    seconds,
    rps: latenciesMs.length / seconds,
    latenciesMs,
  };
}

/** Several loads at once (one per app instance, say), each with its own connections. */
export async function runLoads(loads: Parameters<typeof runLoad>[0][]): Promise<LoadResult[]> {
  return Promise.all(loads.map(runLoad));
}
