import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as ping from "@/app/api/ping/route";
import { otherMethods } from "@/lib/http/other-methods";

const request = (method: string, url = "http://localhost:3000/api/things") => new Request(url, { method });

describe("otherMethods", () => {
  it("answers every method a route does not with a JSON 405 whose Allow lists the route's methods", async () => {
    const refused = otherMethods("POST");
    expect(Object.keys(refused).sort()).toEqual(["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "PUT"]);
    const answer = refused.PUT(request("PUT"));
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("OPTIONS, POST");
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(await answer.json()).toEqual({
      error: "PUT is not allowed on /api/things; use OPTIONS, POST.",
      code: "method_not_allowed:request",
    });
  });

  it("answers OPTIONS with 204 and Allow, HEAD going with GET as Next.js serves it", () => {
    const refused = otherMethods("GET", "DELETE");
    expect(Object.keys(refused).sort()).toEqual(["OPTIONS", "PATCH", "POST", "PUT"]);
    const options = refused.OPTIONS(request("OPTIONS"));
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, HEAD, OPTIONS, DELETE");
    expect(refused.POST(request("POST")).headers.get("allow")).toBe("GET, HEAD, OPTIONS, DELETE");
  });

  it("is what a route exports beside its own handlers", async () => {
    const answer = ping.POST(request("POST", "http://localhost:3000/api/ping"));
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect((await answer.json()).error).toBe("POST is not allowed on /api/ping; use GET, HEAD, OPTIONS.");
  });
});

function routeFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const at = path.join(folder, entry.name);
    if (entry.isDirectory()) return routeFiles(at);
    return entry.name === "route.ts" ? [at] : [];
  });
}

describe("every route handler", () => {
  it("answers every method itself, so no 405 goes out without Allow (Next.js's own has none)", () => {
    // Next.js answers a missing OPTIONS itself, with Allow; a missing HEAD with GET, or its 405.
    const methods = ["DELETE", "GET", "PATCH", "POST", "PUT"];
    const files = routeFiles(path.resolve(import.meta.dirname, "../../app"));
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const source = readFileSync(file, "utf8");
      if (/\b(otherMethods|everyMethod)\(/.test(source)) continue;
      // The OAuth endpoints answer other methods with their own OAuth-shaped 405 (with Allow).
      const exported = [
        ...source.matchAll(/\bas (DELETE|GET|HEAD|OPTIONS|PATCH|POST|PUT)\b|export const (\w+)/g),
      ].map((match) => match[1] ?? match[2]);
      expect(
        methods.filter((method) => !exported.includes(method)),
        path.relative(process.cwd(), file),
      ).toEqual([]);
    }
  });
});
