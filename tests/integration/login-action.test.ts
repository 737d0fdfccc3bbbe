import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loginAction } from "@/app/(auth)/actions";
import { useProcessDatabase } from "@/db/client";
import { authProviders } from "@/lib/auth/providers";
import { registerUser } from "@/lib/auth/users";
import { createTestDatabase } from "./test-db";

// next-auth's package cannot load outside Next (it imports next/server without an extension): its two error classes
// and the credentials provider, as small as they are in the package.
vi.mock("next-auth", () => {
  class AuthError extends Error {}
  class CredentialsSignin extends AuthError {
    code = "credentials";
  }
  return { AuthError, CredentialsSignin };
});
vi.mock("next-auth/providers/credentials", () => ({
  default: (options: object) => ({ id: "credentials", type: "credentials", options }),
}));
vi.mock("next-auth/providers/github", () => ({ default: () => ({ id: "github" }) }));

// Auth.js's sign-in needs Next's request scope: stand in for it with what it does for credentials — call the real
// provider's authorize with a request carrying the client's headers, and refuse a null user with CredentialsSignin.
const client = vi.hoisted(() => ({ forwardedFor: "203.0.113.9" }));
vi.mock("@/lib/auth/nextauth", () => ({
  signInWithPassword: async (options: Record<string, unknown>, _path: string) => {
    const credentials = authProviders()[0] as unknown as {
      options: { authorize: (credentials: unknown, request: Request) => Promise<unknown> };
    };
    const request = new Request("http://localhost/api/auth/callback/credentials", {
      method: "POST",
      headers: { "x-forwarded-for": `${client.forwardedFor}, 10.0.0.1` },
    });
    const user = await credentials.options.authorize(options, request);
    const { CredentialsSignin } = await import("next-auth");
    if (!user) throw new CredentialsSignin();
    throw Object.assign(new Error("NEXT_REDIRECT"), { signedIn: user });
  },
}));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  handle = await createTestDatabase();
  useProcessDatabase(handle);
  await registerUser(handle.db, { name: "Ada", email: "ada@example.com", password: "correct horse" });
});
afterAll(async () => {
  useProcessDatabase(undefined);
  await handle?.close();
});

function form(email: string, password: string) {
  const data = new FormData();
  data.set("email", email);
  data.set("password", password);
  return data;
}

describe("the sign-in form", () => {
  it("says how long to wait after too many wrong passwords, even for the right one", async () => {
    for (let i = 0; i < 5; i++)
      expect((await loginAction({}, form("ada@example.com", "wrong horse"))).error).toBe(
        "That email and password do not match an account.",
      );
    const locked = await loginAction({}, form("ada@example.com", "correct horse"));
    expect(locked).toEqual({
      error: "Too many sign-in attempts. Try again in 1 minute.",
      values: { email: "ada@example.com" },
    });
  });

  it("locks the client's address (the first X-Forwarded-For entry) after 20 attempts", async () => {
    client.forwardedFor = "198.51.100.77";
    for (let i = 0; i < 20; i++)
      expect((await loginAction({}, form(`guess${i}@example.com`, "wrong horse"))).error).toMatch(
        /do not match/,
      );
    expect((await loginAction({}, form("someone@example.com", "wrong horse"))).error).toBe(
      "Too many sign-in attempts. Try again in 1 minute.",
    );
    client.forwardedFor = "198.51.100.78";
    expect((await loginAction({}, form("someone@example.com", "wrong horse"))).error).toMatch(/do not match/);
  });
});
