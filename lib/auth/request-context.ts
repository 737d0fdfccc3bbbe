import { redirect } from "next/navigation";
import { cache } from "react";
import { type Database, getDb } from "@/db/client";
import { UnauthorizedError } from "@/lib/errors";
import { inSpan } from "@/lib/tracing/tracer";
import { NoOrganizationError, requireActiveUser, resolveUserContext, type UserContext } from "./context";
import { auth } from "./nextauth";

/** The signed-in user's context for this request, or null when nobody is signed in; computed once per request. */
export const getUserContext = cache(
  (): Promise<UserContext | null> =>
    inSpan("auth session", {}, async () => {
      const session = await auth();
      if (!session?.userId) return null;
      try {
        return await resolveUserContext(getDb(), { userId: session.userId, preferredOrgId: session.orgId });
      } catch (error) {
        if (error instanceof UnauthorizedError) return null;
        throw error;
      }
    }),
);

/**
 * For the few pages and handlers that establish who is asking themselves (an invitation's token, the OAuth
 * callback's state): the database. Every other page and handler receives it with its context.
 */
export function databaseForRequest(): Database {
  return getDb();
}

/** What a page reads with: the database and the signed-in user's context. */
export interface SignedInPage {
  db: Database;
  ctx: UserContext;
}

/**
 * For pages: the database and the user's context, or a redirect to sign in (coming back to `returnTo`, a path, when
 * given), or to create a first organization.
 */
export async function requireSignedInPage({ returnTo }: { returnTo?: string } = {}): Promise<SignedInPage> {
  try {
    const ctx = await getUserContext();
    if (!ctx) redirect(returnTo ? `/login?callbackUrl=${encodeURIComponent(returnTo)}` : "/login");
    return { db: getDb(), ctx };
  } catch (error) {
    if (error instanceof NoOrganizationError) redirect("/welcome");
    throw error;
  }
}

/** For route handlers and server actions a person uses: their context, or an UnauthorizedError (401). */
export async function requireSignedInUser(): Promise<UserContext> {
  const ctx = await getUserContext();
  if (!ctx) throw new UnauthorizedError();
  return ctx;
}

/**
 * For actions open to a signed-in user without an organization (creating a first one): the user's id, checked
 * against the database now, or an UnauthorizedError when nobody is signed in or the user has been disabled.
 */
export async function requireSignedInUserId(): Promise<string> {
  const session = await auth();
  if (!session?.userId) throw new UnauthorizedError();
  return (await requireActiveUser(getDb(), session.userId)).userId;
}
