import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "../fixtures/mcp/start-fixture";

const run = promisify(execFile);

/** Debian's PostgreSQL programs of its newest installed version, if any. */
export function postgresBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((x, y) => Number(y) - Number(x));
  const found = versions
    .map((version) => path.join(root, version, "bin"))
    .find((bin) => existsSync(path.join(bin, "pg_ctl")));
  return found;
}

export interface PrivatePostgres {
  /** A database of its own on the server, for the app. */
  url: string;
  /** Stops the server (fast shutdown: connections are ended, as a restart ends them). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and deletes its files. */
  remove(): Promise<void>;
}

/**
 * A PostgreSQL server of the test's own, on a free port, made with Debian's initdb and pg_ctl: a test may stop and
 * start it without disturbing anyone else's database. Undefined when the programs are not installed. (PostgreSQL
 * refuses to run as root: as root, it runs as the postgres user.)
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres | undefined> {
  const bin = postgresBin();
  if (!bin) return undefined;
  const dir = mkdtempSync(path.join(tmpdir(), "switchboard-pg-"));
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: group } = await run("id", ["-g", "postgres"]);
    chownSync(dir, Number(stdout.trim()), Number(group.trim()));
  }
  const pg = (program: string, args: string[]) =>
    asRoot
      ? run("runuser", ["-u", "postgres", "--", path.join(bin, program), ...args])
      : run(path.join(bin, program), args);
  const data = path.join(dir, "data");
  await pg("initdb", ["-D", data, "-U", "switchboard", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = async () => {
    await pg("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", "start"]);
  };
  const stop = async () => {
    await pg("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
  };
  await start();
  await pg("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "switchboard", "switchboard"]);
  return {
    url: `postgres://switchboard:switchboard@127.0.0.1:${port}/switchboard`,
    stop,
    start,
    remove: async () => {
      await pg("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
