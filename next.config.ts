import type { NextConfig } from "next";
import { securityHeaders } from "./lib/http/security-headers";

const nextConfig: NextConfig = {
  // PGlite and QuickJS (in the capability sandbox's worker thread, which the build bundles separately) load their
  // WebAssembly from their own package folders at run time. The MCP SDK is loaded once by Node, so its error
  // classes are the same in every route (sessions are shared across routes); so is prom-client, whose metrics
  // all routes count into.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@modelcontextprotocol/sdk",
    "prom-client",
    "quickjs-emscripten",
    "quickjs-emscripten-core",
    "@jitl/quickjs-wasmfile-release-sync",
  ],
  poweredByHeader: false,
  async headers() {
    return [
      {
        source: "/(.*)",
        headers: securityHeaders(process.env.NODE_ENV === "development"),
      },
    ];
  },
};

export default nextConfig;
