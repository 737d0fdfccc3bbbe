import { PGlite } from "@electric-sql/pglite";

let t = Date.now();
const p = new PGlite();
await p.waitReady;
console.log("ready", Date.now() - t);
t = Date.now();
await p.query("select 1");
console.log("q", Date.now() - t);
t = Date.now();
const c = await p.clone();
console.log("clone", Date.now() - t);
t = Date.now();
const d = await p.dumpDataDir("none");
console.log("dump", Date.now() - t, d.size);
t = Date.now();
const p2 = new PGlite({ loadDataDir: d });
await p2.waitReady;
console.log("load", Date.now() - t);
