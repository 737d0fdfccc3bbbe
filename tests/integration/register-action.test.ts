import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loginAction, registerAction } from "@/app/(auth)/actions";
import type { FormState } from "@/components/forms/form-state";
import { useProcessDatabase } from "@/db/client";
import { memberships, users } from "@/db/schema";
import { authenticate } from "@/lib/auth/authenticate";
import { authProviders } from "@/lib/auth/providers";
import { registerUser } from "@/lib/auth/users";
import { startSmtpSink } from "../fixtures/smtp/smtp-sink";
import { createTestDatabase } from "./test-db";

// next-auth's package cannot load outside Next (it imports next/server without an extension): its two error classes
// and the providers, as small as they are in the package.
vi.mock("next-auth", () => {
  class AuthError extends Error {}
  class CredentialsSignin extends AuthError {}
  return { AuthError, CredentialsSignin };
});
vi.mock("next-auth/providers/credentials", () => ({
  default: (options: object) => ({ id: "credentials", type: "credentials", options }),
}));
vi.mock("next-auth/providers/github", () => ({ default: () => ({ id: "github" }) }));

// Auth.js's sign-in needs Next's request scope: stand in for it with what it does for credentials (the real
// provider's authorize, CredentialsSignin for a refusal), and note every sign-in that went through.
const signedIn = vi.hoisted(() => [] as string[]);
vi.mock("@/lib/auth/nextauth", () => ({
  signInWithPassword: async (options: Record<string, unknown>, _path: string) => {
    const credentials = authProviders()[0] as unknown as {
      options: { authorize: (credentials: unknown, request: Request) => Promise<{ id: string } | null> };
    };
    const user = await credentials.options.authorize(options, new Request("http://localhost/api/auth"));
    const { CredentialsSignin } = await import("next-auth");
    if (!user) throw new CredentialsSignin();
    signedIn.push(user.id);
    throw Object.assign(new Error("NEXT_REDIRECT"), { signedIn: user });
  },
}));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let ada: { id: string; passwordHash: string | null };

beforeAll(async () => {
  sink = await startSmtpSink();
  process.env.AUTH_URL = "https://switchboard.example.com";
  process.env.SMTP_URL = sink.url;
  process.env.ALLOW_REGISTRATION = "true";
  handle = await createTestDatabase();
  useProcessDatabase(handle);
  const { user } = await registerUser(handle.db, {
    name: "Ada",
    email: "ada@example.com",
    password: "ada's own password",
  });
  const [row] = await handle.db.select().from(users).where(eq(users.id, user.id));
  ada = { id: user.id, passwordHash: row?.passwordHash ?? null };
});
afterAll(async () => {
  useProcessDatabase(undefined);
  await handle?.close();
  await sink?.close();
});

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

const register = (email: string, password = "a chosen password") =>
  registerAction({}, form({ name: "Someone", email, password, organizationName: "" }));

const anonymized = (state: FormState, email: string) => JSON.stringify(state).replaceAll(email, "<address>");

const usersWith = async (email: string) =>
  (await handle.db.select({ value: count() }).from(users).where(eq(users.email, email)))[0]?.value;

describe("open registration", () => {
  let taken: FormState;
  let fresh: FormState;

  it("answers an address that has an account exactly as a new one", async () => {
    taken = await register("ADA@example.com", "an intruder's password");
    fresh = await register("newcomer@example.com");
    expect(fresh.success).toMatch(/^Done\. Sign in with newcomer@example\.com/);
    expect(fresh).toMatchObject({ values: { email: "newcomer@example.com" } });
    expect(anonymized(taken, "ada@example.com")).toBe(anonymized(fresh, "newcomer@example.com"));
  });

  it("signs nobody in, and leaves the existing account as it was", async () => {
    expect(signedIn).toEqual([]);
    expect(await usersWith("ada@example.com")).toBe(1);
    const [row] = await handle.db.select().from(users).where(eq(users.id, ada.id));
    expect(row?.passwordHash).toBe(ada.passwordHash);
    expect(await handle.db.select().from(memberships).where(eq(memberships.userId, ada.id))).toHaveLength(1);
    expect(
      await authenticate(handle.db, { email: "ada@example.com", password: "an intruder's password" }),
    ).toBe(null);
  });

  it("creates the new account, which then signs in like any other", async () => {
    expect(await usersWith("newcomer@example.com")).toBe(1);
    const error = await loginAction(
      {},
      form({ email: "newcomer@example.com", password: "a chosen password", callbackUrl: "/" }),
    ).catch((e: unknown) => e);
    expect((error as Error).message).toBe("NEXT_REDIRECT");
    expect(signedIn).toHaveLength(1);
  });

  it("mails the owner of the taken address that nothing changed, and nobody else", async () => {
    await vi.waitFor(() => expect(sink.received).toHaveLength(1));
    const [notice] = sink.received;
    expect(notice?.to).toEqual(["ada@example.com"]);
    expect(notice?.data).toContain(
      "Subject: Someone tried to create a Switchboard account with your address",
    );
    expect(notice?.data.replace(/=\r\n/g, "")).toContain("sign in at https://switchboard.example.com/login");
  });

  it("mails that owner at most once a day, however often their address is tried", async () => {
    await registerUser(handle.db, { name: "Bea", email: "bea@example.com", password: "bea's own password" });
    await register("ada@example.com");
    await register("ada@example.com");
    await register("bea@example.com");
    await vi.waitFor(() => expect(sink.received.map((mail) => mail.to[0])).toContain("bea@example.com"));
    expect(sink.received.filter((mail) => mail.to.includes("ada@example.com"))).toHaveLength(1);
  });

  it("explains bad input per field, the same way for a taken address", async () => {
    const takenShort = await register("ada@example.com", "short");
    const freshShort = await register("someone-else@example.com", "short");
    expect(takenShort.fields).toEqual({ password: ["Use at least 8 characters for the password."] });
    expect(anonymized(takenShort, "ada@example.com")).toBe(
      anonymized(freshShort, "someone-else@example.com"),
    );
  });
});

describe("signing in", () => {
  it("says the same for an unknown address and a wrong password", async () => {
    const unknown = await loginAction({}, form({ email: "nobody@example.com", password: "whatever it is" }));
    const wrong = await loginAction({}, form({ email: "ada@example.com", password: "whatever it is" }));
    expect(unknown.error).toBe("That email and password do not match an account.");
    expect(anonymized(unknown, "nobody@example.com")).toBe(anonymized(wrong, "ada@example.com"));
  });
});
