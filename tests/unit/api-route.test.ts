import { describe, expect, it, vi } from "vitest";
import { ValidationError } from "@/lib/errors";
import { apiRoute } from "@/lib/http/api-route";
import { addToRequestLog } from "@/lib/http/request-scope";

const noParams = { params: Promise.resolve({}) };

describe("apiRoute", () => {
  it("logs one line per request with status and duration, and returns a request id", async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    const handler = apiRoute("GET /t", async () => {
      addToRequestLog({ orgId: "org-1", apiKeyId: "key-1" });
      return Response.json({ ok: true });
    });
    const response = await handler(
      new Request("http://x/t", { headers: { "x-request-id": "abc" } }),
      noParams,
    );
    spy.mockRestore();
    expect(response.headers.get("x-request-id")).toBe("abc");
    const entry = JSON.parse(lines.find((line) => line.includes('"request"')) ?? "{}");
    expect(entry).toMatchObject({
      msg: "request",
      route: "GET /t",
      status: 200,
      requestId: "abc",
      path: "/t",
    });
    expect(typeof entry.durationMs).toBe("number");
  });

  it("maps thrown errors to their status, and unexpected ones to a generic 500", async () => {
    const bad = apiRoute("POST /bad", async () => {
      throw new ValidationError("name is required", { name: ["name is required"] });
    });
    const response = await bad(new Request("http://x/bad", { method: "POST" }), noParams);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: "name is required",
      fields: { name: ["name is required"] },
    });

    const broken = apiRoute("GET /broken", async () => {
      throw new Error("db password=hunter2 refused");
    });
    const failed = await broken(new Request("http://x/broken"), noParams);
    expect(failed.status).toBe(500);
    expect(JSON.stringify(await failed.json())).not.toContain("hunter2");
  });

  it("marks answers for programs not to be compressed, keeping their own cache directives", async () => {
    const plain = await apiRoute("GET /p", async () => Response.json({}))(
      new Request("http://x/p"),
      noParams,
    );
    expect(plain.headers.get("cache-control")).toBeNull();
    const api = apiRoute("GET /a", async () => Response.json({}), { uncompressed: true });
    expect((await api(new Request("http://x/a"), noParams)).headers.get("cache-control")).toBe(
      "no-transform",
    );
    const kept = apiRoute(
      "GET /k",
      async () => new Response("{}", { headers: { "cache-control": "no-cache" } }),
      { uncompressed: true },
    );
    expect((await kept(new Request("http://x/k"), noParams)).headers.get("cache-control")).toBe(
      "no-cache, no-transform",
    );
    const failing = apiRoute(
      "GET /f",
      async () => {
        throw new ValidationError("bad", {});
      },
      { uncompressed: true },
    );
    expect((await failing(new Request("http://x/f"), noParams)).headers.get("cache-control")).toBe(
      "no-transform",
    );
  });
});
