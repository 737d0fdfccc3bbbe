import { config } from "zod";

// Zod compiles object parsers with `new Function` where eval is allowed, and probes for that the first time a
// schema is built. The content security policy (next.config.ts) allows no eval, so the probe would be reported
// as a violation on every page that builds a schema; jitless mode skips it (parsing works the same).
config({ jitless: true });
