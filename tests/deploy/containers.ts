/**
 * The deployment's parts, as the rolling-restart test and the REST benchmark run them: the image built from the
 * Dockerfile, app containers on the host network (this machine's Docker has no bridge) and HAProxy with the
 * committed deploy/haproxy.cfg. Docker's CLI and HAProxy's must be on the PATH.
 */
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "../..");

export interface Instance {
  name: string;
  port: number;
}

export function docker(...args: string[]): string {
  return execFileSync("docker", args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
}

/** Builds the image from the repository's Dockerfile, after making its base image where no registry is reachable. */
export function buildImage(image: string) {
  execFileSync("bash", [path.join(root, "tests/deploy/make-base-image.sh")], { stdio: "inherit" });
  execFileSync("docker", ["build", "--network", "host", "-t", image, root], {
    stdio: "inherit",
    env: { ...process.env, DOCKER_BUILDKIT: process.env.DOCKER_BUILDKIT ?? "0" },
  });
}

/** `docker run` arguments setting each variable. */
export function envArgs(env: Record<string, string>): string[] {
  return Object.entries(env).flatMap(([key, value]) => ["-e", `${key}=${value}`]);
}

export function removeInstance(instance: Instance) {
  execFileSync("docker", ["rm", "-f", instance.name], { stdio: "ignore" });
}

/** Starts an app instance as an orchestrator would: detached, with an init process and a minute to stop. */
export function startInstance(image: string, instance: Instance, env: Record<string, string>) {
  removeInstance(instance);
  docker(
    "run",
    "-d",
    "--init",
    "--name",
    instance.name,
    "--network",
    "host",
    "--stop-timeout",
    "60",
    ...envArgs({ ...env, PORT: String(instance.port) }),
    image,
  );
}

export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export const answers =
  (url: string, status = 200) =>
  async () =>
    (await fetch(url)).status === status;

/** Waits for an instance's readiness answer on its own port. */
export const ready = (instance: Instance, timeoutMs?: number) =>
  waitFor(`${instance.name} ready`, answers(`http://127.0.0.1:${instance.port}/api/ready`), timeoutMs);

/**
 * HAProxy with the committed configuration, listening on `port` and sending to the two addresses (the same
 * address twice makes it a balancer in front of one instance). Answers a function that stops it.
 */
export function startLoadBalancer(port: number, [first, second]: [Instance, Instance]): () => void {
  const config = path.join(tmpdir(), `switchboard-haproxy-${port}.cfg`);
  const committed = readFileSync(path.join(root, "deploy/haproxy.cfg"), "utf8");
  writeFileSync(config, committed.replace("bind :8080", `bind 127.0.0.1:${port}`));
  const haproxy = spawn("haproxy", ["-f", config, "-db"], {
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      APP1_ADDR: `127.0.0.1:${first.port}`,
      APP2_ADDR: `127.0.0.1:${second.port}`,
    },
  });
  return () => haproxy.kill("SIGTERM");
}
