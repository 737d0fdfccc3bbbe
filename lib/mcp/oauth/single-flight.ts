import { processWide } from "@/lib/process-wide.mjs";

// Every server bundle of the process shares one map: one refresh per token per process.
const flightsOf = () => processWide("oauthFlights", () => new Map<string, Promise<unknown>>());

/** Runs fn once per key at a time: callers that arrive while it runs wait for the same result. */
export function singleFlight<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const flights = flightsOf();
  const running = flights.get(key);
  if (running) return running as Promise<T>;
  const flight = fn().finally(() => flights.delete(key));
  flights.set(key, flight);
  return flight;
}
