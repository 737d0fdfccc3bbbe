// @ts-check
// JavaScript, not TypeScript: scripts/serve.mjs starts the drain, and that server runs on Node without a loader.

import { processWide } from "../process-wide.mjs";

// One per process: Next.js's server bundles load this module apart from the server that drains, and all of them
// must see one state.

/**
 * @typedef {{
 *   draining: boolean, streamsEnded: boolean, listeners: Set<() => void>,
 *   managed: boolean, closers: Set<() => Promise<void>>, unfinished: Set<Promise<unknown>>
 * }} DrainState
 */

/** @returns {DrainState} */
function state() {
  return processWide("draining", freshState);
}

/** @returns {DrainState} */
function freshState() {
  return {
    draining: false,
    streamsEnded: false,
    listeners: new Set(),
    managed: false,
    closers: new Set(),
    unfinished: new Set(),
  };
}

/** Forgets the drain, as a fresh process would start (tests that drain and go on). */
export function resetDraining() {
  Object.assign(state(), freshState());
}

/** True once the instance is stopping: it answers what it gets, but tells load balancers it is not ready. */
export function isDraining() {
  return state().draining;
}

/** The instance is stopping: readiness answers 503 from now on. */
export function startDraining() {
  state().draining = true;
}

/**
 * Ends every open long-lived stream (their clients resume on another instance), so that closing the server waits
 * only for requests that will finish by themselves.
 */
export function endStreams() {
  const current = state();
  current.streamsEnded = true;
  for (const listener of [...current.listeners]) listener();
  current.listeners.clear();
}

/**
 * Calls `end` when the instance ends its streams (at once if it already has); answers the function that
 * forgets it, for a stream that ended on its own.
 * @param {() => void} end
 * @returns {() => void}
 */
export function onStreamsEnd(end) {
  const current = state();
  if (current.streamsEnded) {
    end();
    return () => {};
  }
  current.listeners.add(end);
  return () => current.listeners.delete(end);
}

/** The server stops the process in order (scripts/serve.mjs): what holds connections closes after it, not on the signal. */
export function manageStop() {
  state().managed = true;
}

/**
 * Where the server stops the process in order, `close` runs once the requests in flight have finished (the
 * upstream servers their tool calls use stay open until then) and answers true; elsewhere answers false.
 * @param {() => Promise<void>} close
 * @returns {boolean}
 */
export function closeAfterServer(close) {
  const current = state();
  if (!current.managed) return false;
  current.closers.add(close);
  return true;
}

/**
 * Work that outlives its request (a chat turn whose page left): a stopping instance lets it end before it closes
 * what it uses and exits.
 * @param {Promise<unknown>} work
 */
export function finishBeforeExit(work) {
  const { unfinished } = state();
  unfinished.add(work);
  void work.finally(() => unfinished.delete(work)).catch(() => {});
}

/**
 * Runs what waits for the server to close, once the work that outlived its request has ended; resolves when all
 * have ended, however they ended.
 */
export async function serverClosed() {
  await Promise.allSettled([...state().unfinished]);
  await Promise.allSettled([...state().closers].map((close) => close()));
}
