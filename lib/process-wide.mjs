// @ts-check
// JavaScript, not TypeScript: the Node server (scripts/serve.mjs) shares some of this state and runs without a loader.

/**
 * State kept once per process, whichever copy of a module asks: Next.js loads a module once per server bundle, and
 * the Node server once more, and all of them must share one value. It lives on globalThis under
 * `Symbol.for("switchboard.<key>")`, made by `make` the first time any copy asks.
 * @template T
 * @param {string} key
 * @param {() => T} make
 * @returns {T}
 */
export function processWide(key, make) {
  const holder = /** @type {Record<symbol, unknown>} */ (globalThis);
  const symbol = Symbol.for(`switchboard.${key}`);
  if (!(symbol in holder)) holder[symbol] = make();
  return /** @type {T} */ (holder[symbol]);
}
