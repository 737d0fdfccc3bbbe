import { execSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

// Linux reports process times in clock ticks; almost always 100 a second.
const ticksPerSecond = (() => {
  try {
    return Number(execSync("getconf CLK_TCK").toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user and system) a process has used so far, in ms, from /proc; NaN once it is gone. */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return Number.NaN;
  }
}

/** The PostgreSQL server processes serving connections to one database (their title names it). */
export function postgresBackends(database: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (title.startsWith("postgres: ") && title.includes(` ${database} `)) pids.push(Number(entry));
    } catch {}
  }
  return pids;
}

export type CpuSources = Record<string, () => number[]>;

/**
 * Measures the CPU time each group of processes (the app, its database's server processes, the upstream, the
 * bench itself) spends between start and the returned function's call, in ms. A process that appeared meanwhile
 * counts from zero; one that ended is left out.
 */
export function startCpuMeter(sources: CpuSources): () => Record<string, number> {
  const read = () =>
    Object.fromEntries(
      Object.entries(sources).map(([name, pids]) => [
        name,
        new Map(pids().map((pid) => [pid, processCpuMs(pid)] as const)),
      ]),
    );
  const before = read();
  return () => {
    const after = read();
    return Object.fromEntries(
      Object.entries(after).map(([name, times]) => {
        let total = 0;
        for (const [pid, ms] of times) {
          const spent = ms - (before[name]?.get(pid) ?? 0);
          if (Number.isFinite(spent)) total += spent;
        }
        return [name, total];
      }),
    );
  };
}
