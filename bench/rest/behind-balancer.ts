import { execFileSync } from "node:child_process";
import {
  answers,
  buildImage,
  type Instance,
  ready,
  removeInstance,
  startInstance,
  startLoadBalancer,
  waitFor,
} from "../../tests/deploy/containers";
import { type LoadResult, runLoad } from "../load";
import { percentile } from "../stats";

export interface BalancerFigures {
  one: LoadResult[];
  two: LoadResult[];
}

function imageExists(image: string): boolean {
  try {
    execFileSync("docker", ["image", "inspect", image], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * The deployment's own path: the image from the Dockerfile, HAProxy with deploy/haproxy.cfg in front of one
 * container (both of its servers naming the same instance) and in front of two, loaded in turn with the same
 * request. The image is built unless BENCH_IMAGE names one that exists.
 */
export async function measureBehindBalancer(options: {
  databaseUrl: string;
  env: Record<string, string>;
  basePort: number;
  request: { path: string; body: string; headers: Record<string, string> };
  connections: number;
  seconds: number;
  repeat: number;
}): Promise<BalancerFigures> {
  const image = process.env.BENCH_IMAGE ?? "switchboard:bench";
  if (!imageExists(image)) buildImage(image);
  const instances: [Instance, Instance] = [
    { name: "switchboard-bench-app1", port: options.basePort },
    { name: "switchboard-bench-app2", port: options.basePort + 1 },
  ];
  const balancers = { one: options.basePort + 2, two: options.basePort + 3 };
  const stops: (() => void)[] = [];
  try {
    for (const instance of instances)
      startInstance(image, instance, { ...options.env, DATABASE_URL: options.databaseUrl });
    for (const instance of instances) await ready(instance, 300_000);
    const [first] = instances;
    stops.push(startLoadBalancer(balancers.one, [first, first]));
    stops.push(startLoadBalancer(balancers.two, instances));
    for (const port of Object.values(balancers))
      await waitFor(`the load balancer on ${port}`, answers(`http://127.0.0.1:${port}/api/ready`));

    const load = (port: number, seconds: number) =>
      runLoad({
        url: `http://127.0.0.1:${port}${options.request.path}`,
        body: options.request.body,
        headers: options.request.headers,
        connections: options.connections,
        seconds,
      });
    // Warm-up: both instances through the balancer of two.
    await load(balancers.two, 3);
    await load(balancers.one, 2);
    const figures: BalancerFigures = { one: [], two: [] };
    for (let r = 0; r < options.repeat; r++) {
      figures.one.push(await load(balancers.one, options.seconds));
      figures.two.push(await load(balancers.two, options.seconds));
    }
    return figures;
  } finally {
    for (const stop of stops) stop();
    for (const instance of instances) removeInstance(instance);
  }
}

/** A table row for a set of runs. */
export function balancerRow(path: string, instances: string, runs: LoadResult[]) {
  const latencies = runs.flatMap((run) => run.latenciesMs);
  const rps = percentile(
    runs.map((run) => run.rps),
    50,
  );
  return {
    path,
    instances,
    requests: runs.reduce((sum, run) => sum + run.requests, 0),
    rps: rps.toFixed(0),
    p50_ms: percentile(latencies, 50).toFixed(2),
    p99_ms: percentile(latencies, 99).toFixed(2),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  };
}
