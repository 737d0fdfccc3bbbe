import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { signInThrottles } from "@/db/schema";
import { authenticate, SignInThrottledError } from "@/lib/auth/authenticate";
import { beginSignInAttempt, clientAddress, SIGN_IN_POLICY } from "@/lib/auth/sign-in-throttle";
import { registerUser } from "@/lib/auth/users";
import { createTestDatabase } from "./test-db";

// The real bcrypt comparison, watched: a locked account must be refused before the password is looked at.
const password = vi.hoisted(() => ({ checks: 0 }));
vi.mock("@/lib/auth/password", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/auth/password")>();
  return {
    ...real,
    verifyPassword: (plain: string, hash: string) => {
      password.checks++;
      return real.verifyPassword(plain, hash);
    },
  };
});

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
const db = () => handle.db;
const RIGHT = "correct horse battery";
const WRONG = "wrong horse battery";

beforeAll(async () => {
  handle = await createTestDatabase();
  for (const name of ["ada", "bob"])
    await registerUser(db(), { name, email: `${name}@example.com`, password: RIGHT });
});
afterAll(() => handle?.close());
beforeEach(async () => {
  await db().delete(signInThrottles);
  password.checks = 0;
});

const T0 = new Date("2030-01-01T12:00:00Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const MINUTE = 60_000;

/** authenticate's answer: the user's email, "invalid", or the throttled error. */
async function attempt(email: string, pass: string, now: Date, address: string | null = "203.0.113.7") {
  try {
    const user = await authenticate(db(), { email, password: pass }, { address, now });
    return user ? user.email : "invalid";
  } catch (error) {
    if (error instanceof SignInThrottledError) return error;
    throw error;
  }
}

async function fail(email: string, times: number, now: Date, address?: string | null) {
  for (let i = 0; i < times; i++) expect(await attempt(email, WRONG, now, address)).toBe("invalid");
}

describe("sign-in throttling per account", () => {
  it("refuses the 6th wrong guess without checking the password, with a clear message", async () => {
    await fail("ada@example.com", 5, T0);
    expect(password.checks).toBe(5);
    const refused = await attempt("ada@example.com", WRONG, at(1000));
    expect(refused).toBeInstanceOf(SignInThrottledError);
    expect((refused as SignInThrottledError).message).toBe(
      "Too many sign-in attempts. Try again in 1 minute.",
    );
    expect((refused as SignInThrottledError).status).toBe(429);
    expect(password.checks).toBe(5);
  });

  it("refuses the right password while locked, and lets it in once the lock has ended", async () => {
    await fail("ada@example.com", 5, T0);
    expect(await attempt("ada@example.com", WRONG, at(1000))).toBeInstanceOf(SignInThrottledError);
    expect(await attempt("ada@example.com", RIGHT, at(30_000))).toBeInstanceOf(SignInThrottledError);
    expect(await attempt("ada@example.com", RIGHT, at(1000 + MINUTE - 1))).toBeInstanceOf(
      SignInThrottledError,
    );
    expect(await attempt("ada@example.com", RIGHT, at(1000 + MINUTE))).toBe("ada@example.com");
  });

  it("locks for longer each time (1, 2, 4… minutes, at most 15)", async () => {
    let now = T0.getTime();
    const waits: number[] = [];
    // No address: six rounds from one address would lock the address too.
    for (let round = 0; round < 6; round++) {
      await fail("ada@example.com", 5, new Date(now), null);
      const refused = await attempt("ada@example.com", WRONG, new Date(now), null);
      expect(refused).toBeInstanceOf(SignInThrottledError);
      const wait = (refused as SignInThrottledError).retryAfterSeconds;
      waits.push(wait / 60);
      now += wait * 1000;
    }
    expect(waits).toEqual([1, 2, 4, 8, 15, 15]);
    expect(
      (await attempt("ada@example.com", RIGHT, new Date(now - 1000), null)) as SignInThrottledError,
    ).toMatchObject({ message: "Too many sign-in attempts. Try again in 1 minute." });
  });

  it("forgets failures older than the window", async () => {
    await fail("ada@example.com", 4, T0);
    await fail("ada@example.com", 4, at(SIGN_IN_POLICY.windowMs));
    expect(await attempt("ada@example.com", RIGHT, at(SIGN_IN_POLICY.windowMs + 1))).toBe("ada@example.com");
  });

  it("counts per account: another account is not locked", async () => {
    await fail("ada@example.com", 5, T0, "198.51.100.1");
    expect(await attempt("ada@example.com", RIGHT, at(1), "198.51.100.2")).toBeInstanceOf(
      SignInThrottledError,
    );
    expect(await attempt("bob@example.com", RIGHT, at(1), "198.51.100.1")).toBe("bob@example.com");
  });

  it("counts unknown accounts the same way", async () => {
    await fail("nobody@example.com", 5, T0);
    expect(await attempt("nobody@example.com", WRONG, at(1))).toBeInstanceOf(SignInThrottledError);
  });

  it("starts the account afresh after a successful sign-in", async () => {
    await fail("ada@example.com", 4, T0);
    expect(await attempt("ada@example.com", RIGHT, at(1))).toBe("ada@example.com");
    await fail("ada@example.com", 4, at(2));
    expect(await attempt("ada@example.com", RIGHT, at(3))).toBe("ada@example.com");
  });

  it("holds under parallel guesses: only the allowed number reach the password check", async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => attempt("ada@example.com", WRONG, T0, null)),
    );
    expect(results.filter((r) => r === "invalid")).toHaveLength(5);
    expect(results.filter((r) => r instanceof SignInThrottledError)).toHaveLength(7);
    expect(password.checks).toBe(5);
  });
});

describe("sign-in throttling per address", () => {
  it("locks an address after 20 attempts across accounts, without touching other addresses", async () => {
    const address = "192.0.2.44";
    for (let i = 0; i < SIGN_IN_POLICY.addressLimit; i++)
      expect(await attempt(`guess${i}@example.com`, WRONG, T0, address)).toBe("invalid");
    const checks = password.checks;
    expect(await attempt("ada@example.com", RIGHT, at(1), address)).toBeInstanceOf(SignInThrottledError);
    expect(password.checks).toBe(checks);
    expect(await attempt("ada@example.com", RIGHT, at(1), "192.0.2.45")).toBe("ada@example.com");
    expect(await attempt("ada@example.com", RIGHT, at(MINUTE + 1), address)).toBe("ada@example.com");
  });

  it("does not count successful sign-ins against the address", async () => {
    const address = "192.0.2.60";
    for (let i = 0; i < SIGN_IN_POLICY.addressLimit + 5; i++)
      expect(await attempt(i % 2 ? "ada@example.com" : "bob@example.com", RIGHT, T0, address)).not.toBe(
        "invalid",
      );
    expect(await attempt("ada@example.com", RIGHT, at(1), address)).toBe("ada@example.com");
  });

  it("is shared through the database, whoever counts", async () => {
    await beginSignInAttempt(db(), { email: "ada@example.com", address: "192.0.2.9" }, T0);
    const rows = await db().select().from(signInThrottles);
    expect(rows.map((row) => row.key).sort()).toEqual(["email:ada@example.com", "ip:192.0.2.9"]);
  });
});

describe("clientAddress", () => {
  it("takes the first X-Forwarded-For entry, else X-Real-IP, and folds IPv4-mapped IPv6", () => {
    expect(clientAddress(new Headers({ "x-forwarded-for": "203.0.113.5, 10.0.0.1" }))).toBe("203.0.113.5");
    expect(clientAddress(new Headers({ "x-forwarded-for": "::ffff:203.0.113.5" }))).toBe("203.0.113.5");
    expect(clientAddress(new Headers({ "x-real-ip": "2001:db8::1" }))).toBe("2001:db8::1");
    expect(clientAddress(new Headers())).toBeNull();
    expect(clientAddress(undefined)).toBeNull();
  });
});
