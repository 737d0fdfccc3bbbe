import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { chromiumArgs, chromiumPath } from "./tests/e2e/chromium";
import { oidcClient } from "./tests/fixtures/oidc/client";

const port = Number(process.env.E2E_PORT ?? 3100);
// Every run starts from an empty installation, so the first registration is the superadmin.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "switchboard-e2e-"));
// A second app, configured with a model: the real OpenAI provider talking to our scripted server.
export const modelAppPort = port + 1;
export const scriptedLlmPort = port + 90;
const modelDataDir = mkdtempSync(path.join(tmpdir(), "switchboard-e2e-model-"));
// A third app with single sign-on through a real OpenID Connect provider (tests/fixtures/oidc/provider.ts).
export const ssoAppPort = port + 2;
export const oidcProviderPort = port + 91;
const ssoDataDir = mkdtempSync(path.join(tmpdir(), "switchboard-e2e-sso-"));
// The background health check would change integrations' status under the tests; it has tests of its own.
const quiet = { LOG_LEVEL: "warn", NEXT_TELEMETRY_DISABLED: "1", HEALTH_CHECK_INTERVAL_MS: "0" };

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromiumPath() ?? undefined,
      args: chromiumArgs,
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  // Started one after the other: the first builds the app when needed, the others reuse that build.
  webServer: [
    {
      command: "npx tsx scripts/start.ts",
      url: `http://127.0.0.1:${port}/api/health`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        PORT: String(port),
        DATA_DIR: dataDir,
        DATABASE_URL: "",
        // The tests add the "Everything" reference server from the catalog.
        MCP_DEMO_SERVERS: "true",
        ...quiet,
      },
    },
    {
      command: `npx tsx tests/fixtures/openai/scripted-server.ts --port ${scriptedLlmPort}`,
      port: scriptedLlmPort,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
    },
    {
      command: "npx tsx scripts/start.ts",
      url: `http://127.0.0.1:${modelAppPort}/api/health`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        PORT: String(modelAppPort),
        DATA_DIR: modelDataDir,
        DATABASE_URL: "",
        OPENAI_API_KEY: "sk-scripted",
        OPENAI_BASE_URL: `http://127.0.0.1:${scriptedLlmPort}/v1`,
        CHAT_MODEL: "scripted-model",
        MCP_DEMO_SERVERS: "true",
        // The OAuth test provider listens on loopback, and so do the Client ID Metadata Documents, over https with
        // a certificate of the tests' own.
        MCP_ALLOW_PRIVATE_NETWORKS: "true",
        NODE_EXTRA_CA_CERTS: path.resolve("tests/fixtures/tls/localhost-cert.pem"),
        // Invitations made here are expired from the start, so a browser test can open an expired link.
        INVITATION_TTL_HOURS: "0",
        ...quiet,
      },
    },
    {
      command: `npx tsx tests/fixtures/oidc/provider.ts --port ${oidcProviderPort} --app-port ${ssoAppPort}`,
      url: `http://127.0.0.1:${oidcProviderPort}/.well-known/openid-configuration`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
    },
    {
      command: "npx tsx scripts/start.ts",
      url: `http://127.0.0.1:${ssoAppPort}/api/health`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        PORT: String(ssoAppPort),
        DATA_DIR: ssoDataDir,
        DATABASE_URL: "",
        AUTH_OIDC_ISSUER: `http://127.0.0.1:${oidcProviderPort}`,
        AUTH_OIDC_ID: oidcClient.id,
        AUTH_OIDC_SECRET: oidcClient.secret,
        AUTH_OIDC_NAME: "Test SSO",
        MCP_DEMO_SERVERS: "true",
        ...quiet,
      },
    },
  ],
});
