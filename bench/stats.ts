/** The q-th percentile (0–100) of samples, by nearest rank. */
export function percentile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((q / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

/** Times `iterations` sequential runs of fn, after a warm-up, in milliseconds each. */
export async function sample(
  fn: () => Promise<unknown>,
  iterations: number,
  warmup = Math.ceil(iterations / 10),
) {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times;
}

export function printTable(rows: Record<string, string | number>[]) {
  console.table(rows);
}

/** The machine-readable line scripts read: `RESULT <metric> <number>`. */
export function result(metric: string, value: number) {
  console.log(`RESULT ${metric} ${Number.isFinite(value) ? value.toFixed(3) : "NaN"}`);
}

/**
 * Times several functions called in turn, one call of each per round (each round starting with the next one), so
 * that each meets the machine as the others do (a busy neighbour, a collection, what the call before left) and
 * their figures compare fairly. One array of times per function.
 */
export async function sampleInTurn(fns: (() => Promise<unknown>)[], rounds: number, warmup = 20) {
  for (let i = 0; i < warmup; i++) for (const fn of fns) await fn();
  const times = fns.map(() => [] as number[]);
  for (let i = 0; i < rounds; i++)
    for (let k = 0; k < fns.length; k++) {
      const j = (i + k) % fns.length;
      const start = performance.now();
      await fns[j]?.();
      times[j]?.push(performance.now() - start);
    }
  return times;
}
