import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite loads its WebAssembly and data files from its own package folder at run time. The MCP SDK is loaded
  // once by Node, so its error classes are the same in every route (sessions are shared across routes).
  // (QuickJS runs in the capability sandbox's worker thread, which Node loads from lib/ directly.)
  serverExternalPackages: ["@electric-sql/pglite", "@modelcontextprotocol/sdk"],
  poweredByHeader: false,
};

export default nextConfig;
