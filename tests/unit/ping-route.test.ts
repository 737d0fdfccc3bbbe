import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/ping/route";

describe("GET /api/ping", () => {
  it("answers ok without a database or a session", async () => {
    const response = GET();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });
});
