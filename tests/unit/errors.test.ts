import { describe, expect, it, vi } from "vitest";
import {
  AppError,
  ConflictError,
  toActionError,
  toErrorResponse,
  UnauthorizedError,
  ValidationError,
} from "@/lib/errors";

describe("errors", () => {
  it.each([
    ["an UnauthorizedError", 401, new UnauthorizedError()],
    ["a ValidationError", 400, new ValidationError("bad")],
    ["a ConflictError", 409, new ConflictError("dup")],
    ["a forbidden AppError", 403, new AppError("forbidden:chat", "no")],
  ])("derives the HTTP status from the code's type: %s has %i", (_kind, status, error) => {
    expect(error.status).toBe(status);
  });

  it("answers app errors with their message and fields", async () => {
    const response = toErrorResponse(new ValidationError("Email is wrong", { email: ["Email is wrong"] }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "Email is wrong",
      code: "bad_request:validation",
      fields: { email: ["Email is wrong"] },
    });
  });

  it("answers unexpected errors with a generic 500 that reveals nothing, and logs no secret", async () => {
    const logged: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      logged.push(String(chunk));
      return true;
    });
    const response = toErrorResponse(new Error("connection to 10.0.0.5 failed with password=secret"));
    expect(response.status).toBe(500);
    const body = JSON.stringify(await response.json());
    expect(body).not.toContain("10.0.0.5");
    expect(body).not.toContain("secret");
    expect(logged.join("\n")).not.toContain("secret");
    expect(toActionError(new TypeError("x is undefined")).error).toMatch(/went wrong on our side/);
    vi.restoreAllMocks();
    expect(logged.join("\n")).toContain("unexpected error");
  });

  it("tells a form what an unavailable server said, but hides internal errors", () => {
    expect(
      toActionError(new AppError("unavailable:mcp_connection", "The server timed out after 5 s.")),
    ).toEqual({
      error: "The server timed out after 5 s.",
    });
    expect(toActionError(new AppError("internal:mcp", "stack at /srv/app.js")).error).toMatch(
      /went wrong on our side/,
    );
  });
});
