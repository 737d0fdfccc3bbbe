import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { InvitationFormState } from "@/app/(app)/settings/members/actions";
import { useProcessDatabase } from "@/db/client";
import { memberships } from "@/db/schema";
import type { UserContext } from "@/lib/auth/context";
import { acceptInvitation } from "@/lib/invitations/accept-invitation";
import { listPendingInvitations } from "@/lib/invitations/invitations";
import { startSmtpSink } from "../fixtures/smtp/smtp-sink";
import { registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

// The action reads the signed-in user through next-auth and revalidates Next's cache, which need Next's runtime:
// stand in for both. Links are built on AUTH_URL, as in production. Everything else the action does is real.
const session = vi.hoisted(() => ({ ctx: null as unknown }));
vi.mock("@/lib/auth/request-context", () => ({ requireSignedInUser: async () => session.ctx }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let olivia: UserContext;
let eve: UserContext; // has an account (and an organization of her own)

beforeAll(async () => {
  sink = await startSmtpSink();
  process.env.AUTH_URL = "https://switchboard.example.com";
  process.env.SMTP_URL = sink.url;
  handle = await createTestDatabase();
  useProcessDatabase(handle);
  [olivia, eve] = (await registerOwners(handle.db, "Olivia", "Eve")) as [UserContext, UserContext];
  session.ctx = olivia;
});
afterAll(async () => {
  useProcessDatabase(undefined);
  await handle?.close();
  await sink?.close();
});

function form(email: string, role = "member") {
  const data = new FormData();
  data.set("email", email);
  data.set("role", role);
  return data;
}

async function addByEmail(email: string): Promise<InvitationFormState> {
  const { createInvitationAction } = await import("@/app/(app)/settings/members/actions");
  return createInvitationAction({}, form(email));
}

/** An answer or a mail with the address and the link's token taken out: what is left must not differ. */
function anonymized(text: string, email: string): string {
  return (email ? text.replaceAll(email, "<address>") : text).replace(
    /\/invite\/[A-Za-z0-9_-]{43}/g,
    "/invite/<token>",
  );
}

/** A mail's subject and text, unwrapped, with the link's token and the expiry time taken out. */
function content(data = ""): string {
  const subject = /^Subject: .*$/m.exec(data)?.[0];
  const text = data.slice(data.indexOf("\r\n\r\n")).replace(/=\r\n/g, "");
  return anonymized(`${subject}\n${text}`, "").replace(/expires on [^.]*GMT/, "expires on <time>");
}

const mailTo = (email: string) => sink.received.find((mail) => mail.to.includes(email));

const membershipOf = async (userId: string, orgId: string) =>
  (
    await handle.db
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.userId, userId), eq(memberships.organizationId, orgId)))
  )[0];

describe("adding someone to an organization by email", () => {
  it("answers the same whether or not the address has an account, and mails the same invitation", async () => {
    const existing = await addByEmail("eve@example.com");
    const unknown = await addByEmail("nobody@example.com");
    expect(existing).toMatchObject({
      success: "Invitation created for eve@example.com as member.",
      email: "eve@example.com",
      mail: "sent",
    });
    expect(anonymized(JSON.stringify(existing), "eve@example.com")).toBe(
      anonymized(JSON.stringify(unknown), "nobody@example.com"),
    );
    await vi.waitFor(() => expect(sink.received).toHaveLength(2));
    const toEve = mailTo("eve@example.com");
    const toNobody = mailTo("nobody@example.com");
    expect(content(toEve?.data)).toContain("Olivia invited you to join Olivia's organization");
    expect(content(toEve?.data)).toBe(content(toNobody?.data));
  });

  it("does not add the existing account: it is listed as pending like any invitation until she accepts", async () => {
    expect(await membershipOf(eve.userId, olivia.orgId)).toBeUndefined();
    const pending = await listPendingInvitations(handle.db, olivia);
    expect(pending.map((invitation) => invitation.email).sort()).toEqual([
      "eve@example.com",
      "nobody@example.com",
    ]);
    const link = (await addByEmail("eve@example.com")).error;
    expect(link).toMatch(/already has a pending invitation/);
    expect((await addByEmail("nobody@example.com")).error).toBe(
      link?.replace("eve@example.com", "nobody@example.com"),
    );
  });

  it("adds her once she accepts her invitation herself", async () => {
    const mail = mailTo("eve@example.com")?.data ?? "";
    const token = /\/invite\/([A-Za-z0-9_-]{43})/.exec(mail.replace(/=\r\n/g, ""))?.[1] ?? "";
    await acceptInvitation(handle.db, { token, userId: eve.userId });
    expect(await membershipOf(eve.userId, olivia.orgId)).toEqual({ role: "member" });
  });

  it("offers no action that adds an account directly", async () => {
    const actions = await import("@/app/(app)/settings/members/actions");
    expect(Object.keys(actions)).not.toContain("addMemberAction");
    expect(Object.keys(await import("@/lib/orgs/members"))).not.toContain("addMember");
  });
});
