import { Pool } from "undici";

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  latenciesMs: number[];
}

/** Sends POSTs with `connections` requests always in flight for `seconds`, on keep-alive connections. */
export async function runLoad(options: {
  url: string;
  body: string;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
}): Promise<LoadResult> {
  const url = new URL(options.url);
  const pool = new Pool(url.origin, { connections: options.connections, pipelining: 1 });
  const latenciesMs: number[] = [];
  let errors = 0;
  const deadline = performance.now() + options.seconds * 1000;
  const started = performance.now();
  const worker = async () => {
    while (performance.now() < deadline) {
      const begin = performance.now();
      try {
        const response = await pool.request({
          method: "POST",
          path: url.pathname,
          headers: { "content-type": "application/json", ...options.headers },
          body: options.body,
        });
        await response.body.text();
        if (response.statusCode !== 200) errors++;
      } catch {
        errors++;
      }
      latenciesMs.push(performance.now() - begin);
    }
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return { requests: latenciesMs.length, errors, seconds, rps: latenciesMs.length / seconds, latenciesMs };
}
