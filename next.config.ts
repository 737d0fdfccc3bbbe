import type { NextConfig } from "next";
import { REMOTE_IMAGE_PATHS, securityHeaders } from "./lib/http/security-headers";

const nextConfig: NextConfig = {
  // PGlite and QuickJS (in the capability sandbox's worker thread, which the build bundles separately) load their
  // WebAssembly from their own package folders at run time. The MCP SDK is loaded once by Node, so its error
  // classes are the same in every route (sessions are shared across routes); so is prom-client, whose metrics
  // all routes count into. The v2 server and core packages likewise (OAuthError is checked with instanceof).
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@modelcontextprotocol/sdk",
    "@modelcontextprotocol/server",
    "@modelcontextprotocol/core",
    "prom-client",
    "quickjs-emscripten",
    "quickjs-emscripten-core",
    "@jitl/quickjs-wasmfile-release-sync",
  ],
  poweredByHeader: false,
  // `forbidden()`: a member opening an admin-only page gets a 403 with its page in the app's shell.
  experimental: { authInterrupts: true },
  async headers() {
    const dev = process.env.NODE_ENV === "development";
    return [
      { source: "/(.*)", headers: securityHeaders(dev) },
      // Listed after: where both match, these win.
      ...REMOTE_IMAGE_PATHS.map((source) => ({
        source,
        headers: securityHeaders(dev, { remoteImages: true }),
      })),
    ];
  },
};

export default nextConfig;
