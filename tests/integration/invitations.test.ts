import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditEvents, invitations, memberships, organizations, users } from "@/db/schema";
import { listAuditEvents } from "@/lib/audit/list-audit";
import { authenticate } from "@/lib/auth/authenticate";
import { resolveUserContext, type UserContext } from "@/lib/auth/context";
import { runCli } from "@/lib/cli/run";
import { acceptInvitation, registerWithInvitation } from "@/lib/invitations/accept-invitation";
import { InvitationUnavailableError } from "@/lib/invitations/errors";
import { findInvitationByToken } from "@/lib/invitations/find-invitation";
import type { MailSettings } from "@/lib/invitations/invitation-mail";
import { listPendingInvitations, revokeInvitation } from "@/lib/invitations/invitations";
import { inviteMember } from "@/lib/invitations/invite-member";
import { startSmtpSink } from "../fixtures/smtp/smtp-sink";
import { appErrorOf } from "./app-error";
import { joinByInvitation, registerOwners } from "./org-users";
import { createTestDatabase } from "./test-db";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
const db = () => handle.db;

const noMail: MailSettings = { SMTP_URL: undefined, SMTP_FROM: "Switchboard <no-reply@localhost>" };
const ORIGIN = "https://switchboard.example.com";
/** Every token handed out, to check none of them is kept or logged anywhere. */
const tokens: string[] = [];

let olivia: UserContext; // owner of Olivia's organization
let mallory: UserContext; // owner of another organization
let adam: UserContext; // admin in Olivia's organization
let mia: UserContext; // member in Olivia's organization

async function joinOlivia(ctx: UserContext, role: "admin" | "member") {
  const [user] = await db().select({ email: users.email }).from(users).where(eq(users.id, ctx.userId));
  await joinByInvitation(db(), olivia, { email: user?.email ?? "", role });
  return resolveUserContext(db(), { userId: ctx.userId, preferredOrgId: olivia.orgId });
}

async function invite(
  ctx: UserContext,
  email: string,
  role = "member",
  options: { mail?: MailSettings } = {},
) {
  const result = await inviteMember(
    db(),
    ctx,
    { email, role },
    { origin: ORIGIN, mail: options.mail ?? noMail },
  );
  const token = result.link.split("/invite/")[1] ?? "";
  tokens.push(token);
  return { ...result, token };
}

async function register(name: string) {
  const [ctx] = await registerOwners(db(), name);
  if (!ctx) throw new Error("not registered");
  return ctx;
}

const emailOf = (name: string) => `${name.toLowerCase()}@example.com`;

const membershipOf = async (userId: string, orgId: string) =>
  (
    await db()
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.userId, userId), eq(memberships.organizationId, orgId)))
  )[0];

beforeAll(async () => {
  handle = await createTestDatabase();
  olivia = await register("Olivia");
  mallory = await register("Mallory");
  adam = await joinOlivia(await register("Adam"), "admin");
  mia = await joinOlivia(await register("Mia"), "member");
});
afterAll(() => handle?.close());

describe("creating invitations", () => {
  it("makes a single-use link on the app's address, keeps only a SHA-256 hash of its token, and expires in 7 days", async () => {
    const { link, token, invitation, organizationName, mail } = await invite(
      olivia,
      " New.Person@Example.COM ",
      "admin",
    );
    expect(link).toMatch(/^https:\/\/switchboard\.example\.com\/invite\/[A-Za-z0-9_-]{43}$/);
    expect(invitation).toMatchObject({ email: "new.person@example.com", role: "admin", invitedBy: "Olivia" });
    expect(organizationName).toBe("Olivia's organization");
    expect(mail).toBe("not_configured");

    const [row] = await db().select().from(invitations).where(eq(invitations.id, invitation.id));
    expect(row?.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(token);
    const hours = ((row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0)) / 3_600_000;
    expect(hours).toBeCloseTo(168, 5);
  });

  it("takes the validity from the caller (INVITATION_TTL_HOURS by default)", async () => {
    const result = await inviteMember(
      db(),
      olivia,
      { email: "short@example.com", role: "member" },
      { origin: ORIGIN, mail: noMail, ttlHours: 2 },
    );
    tokens.push(result.link.split("/invite/")[1] ?? "");
    const [row] = await db().select().from(invitations).where(eq(invitations.id, result.invitation.id));
    expect(((row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0)) / 3_600_000).toBeCloseTo(2, 5);
  });

  it("lets an owner invite any role, an admin members and admins but not owners, and a member nobody", async () => {
    expect((await invite(olivia, "future.owner@example.com", "owner")).invitation.role).toBe("owner");
    expect((await invite(adam, "by.admin@example.com", "admin")).invitation.role).toBe("admin");

    const ownerByAdmin = await appErrorOf(invite(adam, "no.owner@example.com", "owner"));
    expect(ownerByAdmin.code).toBe("forbidden:auth");
    expect(ownerByAdmin.message).toBe("Only an owner can grant, change or remove the owner role.");

    const byMember = await appErrorOf(invite(mia, "from.member@example.com", "member"));
    expect(byMember.code).toBe("forbidden:auth");
    expect(byMember.message).toMatch(/Only owners and admins/);
  });

  it("explains a missing or malformed email, an unknown role, a member already in and a link already pending", async () => {
    const empty = await appErrorOf(invite(olivia, "  "));
    expect(empty.code).toBe("bad_request:validation");
    expect(empty.details?.fields?.email).toEqual(["Enter the email address of the person to invite."]);

    const malformed = await appErrorOf(invite(olivia, "not-an-email"));
    expect(malformed.details?.fields?.email).toEqual(["Enter a valid email address, like name@example.com."]);

    const role = await appErrorOf(invite(olivia, "someone@example.com", "king"));
    expect(role.details?.fields?.role).toEqual(["Choose a role: member, admin or owner."]);

    const member = await appErrorOf(invite(olivia, "MIA@example.com"));
    expect(member.code).toBe("conflict:resource");
    expect(member.details?.fields?.email).toEqual([
      "mia@example.com is already a member of this organization.",
    ]);

    await invite(olivia, "twice@example.com");
    const twice = await appErrorOf(invite(adam, "Twice@example.com", "admin"));
    expect(twice.code).toBe("conflict:resource");
    expect(twice.message).toBe(
      "twice@example.com already has a pending invitation. Revoke it to send a new link.",
    );
  });
});

describe("listing and revoking", () => {
  it("lists the pending invitations newest first, with who invited and when they expire", async () => {
    const { invitation } = await invite(adam, "listed@example.com", "admin");
    const list = await listPendingInvitations(db(), olivia);
    expect(list[0]).toMatchObject({
      id: invitation.id,
      email: "listed@example.com",
      role: "admin",
      invitedBy: "Adam",
    });
    expect(list[0]?.expiresAt.getTime()).toBeGreaterThan(Date.now());
    expect(list.map((item) => item.email)).toContain("new.person@example.com");
  });

  it("revokes a link at once; it leaves the list and says it was revoked; revoking it again finds nothing", async () => {
    const { token, invitation } = await invite(olivia, "revoked@example.com");
    await revokeInvitation(db(), adam, invitation.id);
    expect((await listPendingInvitations(db(), olivia)).map((item) => item.id)).not.toContain(invitation.id);
    expect((await findInvitationByToken(db(), token))?.status).toBe("revoked");
    const again = await appErrorOf(revokeInvitation(db(), olivia, invitation.id));
    expect(again.code).toBe("not_found:resource");
    expect(again.message).toBe("That pending invitation was not found.");
    expect((await appErrorOf(revokeInvitation(db(), olivia, "not-a-uuid"))).code).toBe("not_found:resource");
  });

  it("keeps an owner invitation out of an admin's hands, and every invitation out of a member's", async () => {
    const { invitation } = await invite(olivia, "owner.to.be@example.com", "owner");
    const byAdmin = await appErrorOf(revokeInvitation(db(), adam, invitation.id));
    expect(byAdmin.code).toBe("forbidden:auth");
    expect((await appErrorOf(revokeInvitation(db(), mia, invitation.id))).code).toBe("forbidden:auth");
    expect((await appErrorOf(listPendingInvitations(db(), mia))).code).toBe("forbidden:auth");
    await revokeInvitation(db(), olivia, invitation.id);
  });

  it("shows another organization's admin none of the invitations, and lets them revoke none", async () => {
    const { token, invitation } = await invite(olivia, "isolated@example.com");
    expect(await listPendingInvitations(db(), mallory)).toEqual([]);
    const error = await appErrorOf(revokeInvitation(db(), mallory, invitation.id));
    expect(error.code).toBe("not_found:resource");
    expect((await findInvitationByToken(db(), token))?.status).toBe("pending");
  });
});

describe("accepting through the link", () => {
  it("shows the organization, the role and who invited, to whoever holds the link", async () => {
    const { token } = await invite(adam, "shown@example.com", "admin");
    expect(await findInvitationByToken(db(), token)).toMatchObject({
      organization: { id: olivia.orgId, name: "Olivia's organization" },
      email: "shown@example.com",
      role: "admin",
      invitedBy: "Adam",
      status: "pending",
    });
  });

  it("joins a signed-in user with the invited email (any letter case) with the role, and switches them to the organization", async () => {
    const grace = await register("Grace");
    const { token } = await invite(olivia, "GRACE@example.com", "admin");
    const joined = await acceptInvitation(db(), { token, userId: grace.userId });
    expect(joined).toMatchObject({
      orgId: olivia.orgId,
      role: "admin",
      organizationName: "Olivia's organization",
    });
    expect(await membershipOf(grace.userId, olivia.orgId)).toEqual({ role: "admin" });
    expect(await resolveUserContext(db(), { userId: grace.userId })).toMatchObject({
      orgId: olivia.orgId,
      role: "admin",
    });
    const [row] = await db().select().from(invitations).where(eq(invitations.email, "grace@example.com"));
    expect(row?.acceptedBy).toBe(grace.userId);
    expect(row?.acceptedAt).toBeInstanceOf(Date);
  });

  it("works once, even when accepted twice at the same moment", async () => {
    const henry = await register("Henry");
    const { token } = await invite(olivia, emailOf("Henry"));
    const results = await Promise.allSettled([
      acceptInvitation(db(), { token, userId: henry.userId }),
      acceptInvitation(db(), { token, userId: henry.userId }),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const [failure] = results.filter((result) => result.status === "rejected");
    expect((failure as PromiseRejectedResult).reason).toBeInstanceOf(InvitationUnavailableError);
    expect((failure as PromiseRejectedResult).reason.reason).toBe("accepted");

    const later = await appErrorOf(acceptInvitation(db(), { token, userId: henry.userId }));
    expect(later.code).toBe("conflict:invitation");
    expect(later.message).toMatch(/already been used/);
    expect((await findInvitationByToken(db(), token))?.status).toBe("accepted");
  });

  it("refuses an expired link, says so, and drops it from the list", async () => {
    const ivy = await register("Ivy");
    const { token, invitation } = await invite(olivia, emailOf("Ivy"));
    await db()
      .update(invitations)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(invitations.id, invitation.id));
    const error = await appErrorOf(acceptInvitation(db(), { token, userId: ivy.userId }));
    expect(error.code).toBe("conflict:invitation");
    expect(error.message).toBe(
      "This invitation has expired. Ask an owner or admin of the organization for a new invitation.",
    );
    expect((await findInvitationByToken(db(), token))?.status).toBe("expired");
    expect((await listPendingInvitations(db(), olivia)).map((item) => item.id)).not.toContain(invitation.id);
    expect(await membershipOf(ivy.userId, olivia.orgId)).toBeUndefined();
    // Once expired, the same address may be invited again.
    await invite(olivia, emailOf("Ivy"));
  });

  it("refuses a revoked link", async () => {
    const jack = await register("Jack");
    const { token, invitation } = await invite(olivia, emailOf("Jack"));
    await revokeInvitation(db(), olivia, invitation.id);
    const error = await appErrorOf(acceptInvitation(db(), { token, userId: jack.userId }));
    expect(error.message).toMatch(/withdrawn/);
    expect(await membershipOf(jack.userId, olivia.orgId)).toBeUndefined();
  });

  it("refuses someone signed in with another address, saying which one it is for, and leaves the link unused", async () => {
    const kate = await register("Kate");
    const { token } = await invite(olivia, "someone.else@example.com");
    const error = await appErrorOf(acceptInvitation(db(), { token, userId: kate.userId }));
    expect(error.code).toBe("forbidden:invitation");
    expect(error.message).toContain("This invitation is for someone.else@example.com");
    expect(error.message).toContain("signed in as kate@example.com");
    expect((await findInvitationByToken(db(), token))?.status).toBe("pending");
    expect(await membershipOf(kate.userId, olivia.orgId)).toBeUndefined();
  });

  it("tells a member they are in already, changes nothing and leaves the link unused", async () => {
    // Invited while not yet a member, then a member some other way (written straight in here) before opening it.
    const leo = await register("Leo");
    const { token } = await invite(olivia, emailOf("Leo"), "admin");
    await db()
      .insert(memberships)
      .values({ organizationId: olivia.orgId, userId: leo.userId, role: "member" });
    const error = await appErrorOf(acceptInvitation(db(), { token, userId: leo.userId }));
    expect(error.code).toBe("conflict:resource");
    expect(error.message).toBe("You are already a member of Olivia's organization.");
    expect(await membershipOf(leo.userId, olivia.orgId)).toEqual({ role: "member" });
    expect((await findInvitationByToken(db(), token))?.status).toBe("pending");
  });

  it("tells a malformed or unknown link from the rest", async () => {
    expect(await findInvitationByToken(db(), "nonsense")).toBeNull();
    expect(await findInvitationByToken(db(), "A".repeat(43))).toBeNull();
    const error = await appErrorOf(acceptInvitation(db(), { token: "A".repeat(43), userId: olivia.userId }));
    expect(error.code).toBe("not_found:invitation");
    expect(error.message).toMatch(/not valid/);
  });
});

describe("registering through the link", () => {
  it("creates the account with the invited email, joins with the role, and starts there (no organization of its own)", async () => {
    const { token } = await invite(adam, "Newcomer@Example.com", "admin");
    const joined = await registerWithInvitation(db(), {
      token,
      name: "Nina Newcomer",
      password: "a long password",
    });
    expect(joined).toMatchObject({ orgId: olivia.orgId, role: "admin", email: "newcomer@example.com" });
    const user = await authenticate(db(), { email: "newcomer@example.com", password: "a long password" });
    expect(user).toMatchObject({ id: joined.userId, name: "Nina Newcomer", isSuperadmin: false });
    expect(
      await db()
        .select({ orgId: memberships.organizationId, role: memberships.role })
        .from(memberships)
        .where(eq(memberships.userId, joined.userId)),
    ).toEqual([{ orgId: olivia.orgId, role: "admin" }]);
    expect(await resolveUserContext(db(), { userId: joined.userId })).toMatchObject({
      orgId: olivia.orgId,
      role: "admin",
    });

    const again = await appErrorOf(
      registerWithInvitation(db(), { token, name: "Nina", password: "another password" }),
    );
    expect(again.message).toMatch(/already been used/);
  });

  it("explains a missing name, a short password and an address that has an account, and keeps the link", async () => {
    const { token } = await invite(olivia, "fresh@example.com");
    const name = await appErrorOf(
      registerWithInvitation(db(), { token, name: " ", password: "a long password" }),
    );
    expect(name.details?.fields?.name).toEqual(["Enter your name."]);
    const password = await appErrorOf(
      registerWithInvitation(db(), { token, name: "Fresh", password: "short" }),
    );
    expect(password.details?.fields?.password).toEqual(["Use at least 8 characters for the password."]);
    expect((await findInvitationByToken(db(), token))?.status).toBe("pending");

    // Quinn has an account: she signs in and joins instead; the failed attempt leaves nothing behind.
    const quinn = await register("Quinn");
    const taken = await invite(olivia, emailOf("Quinn"));
    const exists = await appErrorOf(
      registerWithInvitation(db(), { token: taken.token, name: "Quinn", password: "a long password" }),
    );
    expect(exists.code).toBe("conflict:resource");
    expect(exists.details?.fields?.email?.[0]).toMatch(/already exists/);
    expect((await findInvitationByToken(db(), taken.token))?.status).toBe("pending");
    await acceptInvitation(db(), { token: taken.token, userId: quinn.userId });
    expect(await membershipOf(quinn.userId, olivia.orgId)).toEqual({ role: "member" });
  });

  it("refuses an expired or revoked link without creating the account", async () => {
    const { token, invitation } = await invite(olivia, "late@example.com");
    await db()
      .update(invitations)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(invitations.id, invitation.id));
    const error = await appErrorOf(
      registerWithInvitation(db(), { token, name: "Late", password: "a long password" }),
    );
    expect(error.message).toMatch(/expired/);
    expect(await db().select().from(users).where(eq(users.email, "late@example.com"))).toEqual([]);
  });
});

describe("audit", () => {
  it("records who created, revoked and accepted each invitation, and never a token", async () => {
    const { invitation } = await invite(adam, "audited@example.com", "admin");
    const otto = await register("Otto");
    const accepted = await invite(olivia, emailOf("Otto"));
    await acceptInvitation(db(), { token: accepted.token, userId: otto.userId });
    await revokeInvitation(db(), olivia, invitation.id);

    const range = { from: new Date(Date.now() - 3_600_000), to: new Date(Date.now() + 3_600_000) };
    const rows = await listAuditEvents(db(), olivia.orgId, { range, kind: "invitation" });
    const find = (action: string, target: string) =>
      rows.find((row) => row.action === action && row.targetName === target);
    expect(find("invitation.create", "audited@example.com")).toMatchObject({
      actorEmail: "adam@example.com",
      after: { email: "audited@example.com", role: "admin" },
    });
    expect(find("invitation.revoke", "audited@example.com")).toMatchObject({
      actorEmail: "olivia@example.com",
    });
    expect(find("invitation.accept", "otto@example.com")).toMatchObject({
      actorEmail: "otto@example.com",
      after: { email: "otto@example.com", role: "member", userId: otto.userId },
    });

    const everything = JSON.stringify(await db().select().from(auditEvents));
    for (const token of tokens) expect(everything).not.toContain(token);
    expect(everything).not.toContain("/invite/");
  });
});

describe("mailing the link", () => {
  it("mails the link as plain text when SMTP_URL is set", async () => {
    const sink = await startSmtpSink();
    try {
      const mail = { SMTP_URL: sink.url, SMTP_FROM: "Switchboard <no-reply@localhost>" };
      const result = await invite(adam, "mailed@example.com", "admin", { mail });
      expect(result.mail).toBe("sent");
      expect(sink.received).toHaveLength(1);
      const [message] = sink.received;
      expect(message?.from).toBe("no-reply@localhost");
      expect(message?.to).toEqual(["mailed@example.com"]);
      const data = (message?.data ?? "").replace(/=\r\n/g, "");
      expect(data).toMatch(/Content-Type: text\/plain/i);
      expect(data).toContain("Subject: Join Olivia's organization on Switchboard");
      expect(data).toContain("Adam invited you to join Olivia's organization on Switchboard as an admin.");
      expect(data).toContain(result.link);
    } finally {
      await sink.close();
    }
  });

  it("keeps the invitation and its link when the mail server cannot be reached, and logs the failure without the link", async () => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const mail = { SMTP_URL: "smtp://127.0.0.1:1", SMTP_FROM: "Switchboard <no-reply@localhost>" };
      const result = await invite(olivia, "unmailed@example.com", "member", { mail });
      expect(result.mail).toBe("failed");
      expect((await findInvitationByToken(db(), result.token))?.status).toBe("pending");
      expect(written.join("")).toContain("invitation mail not sent");
      expect(written.join("")).not.toContain(result.token);
    } finally {
      spy.mockRestore();
    }
  });
});

describe("invite:create", () => {
  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, async () => ({ db: db(), close: async () => {} }), {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    });
    return { code, out: out.join("\n"), err: err.join("\n") };
  }
  const slug = async () =>
    (
      await db()
        .select({ slug: organizations.slug })
        .from(organizations)
        .where(eq(organizations.id, olivia.orgId))
    )[0]?.slug ?? "";

  it("prints the link once (as JSON with --json), and audits the operator with no actor", async () => {
    const result = await cli(
      "invite:create",
      "--org",
      await slug(),
      "--email",
      "Cli@Example.com",
      "--role",
      "owner",
      "--json",
    );
    expect(result).toMatchObject({ code: 0, err: "" });
    const printed = JSON.parse(result.out);
    expect(printed).toMatchObject({
      organization: await slug(),
      email: "cli@example.com",
      role: "owner",
      mail: "not_configured",
    });
    expect(printed.link).toMatch(/^http:\/\/localhost:\d+\/invite\/[A-Za-z0-9_-]{43}$/);
    expect(new Date(printed.expiresAt).getTime()).toBeGreaterThan(Date.now() + 167 * 3_600_000);
    const token = printed.link.split("/invite/")[1];
    tokens.push(token);
    expect(await findInvitationByToken(db(), token)).toMatchObject({
      status: "pending",
      role: "owner",
      invitedBy: null,
    });

    const [audit] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "invitation.create"), eq(auditEvents.targetId, printed.id)));
    expect(audit).toMatchObject({ actorUserId: null, actorApiKeyId: null, targetName: "cli@example.com" });

    const human = await cli("invite:create", "--org", await slug(), "--email", "cli.human@example.com");
    expect(human.code).toBe(0);
    const [link, summary] = human.out.split("\n");
    expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
    tokens.push(link?.split("/invite/")[1] ?? "");
    expect(summary).toMatch(
      new RegExp(`^Invitation for cli\\.human@example\\.com as member of ${await slug()}, valid once until `),
    );
  });

  it("says what is wrong, with a non-zero exit code", async () => {
    expect(await cli("invite:create", "--org", "nope", "--email", "x@example.com")).toMatchObject({
      code: 1,
      err: 'Error: The organization "nope" was not found.',
    });
    expect(await cli("invite:create", "--org", await slug())).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--email is required/),
    });
    expect(
      await cli(
        "invite:create",
        "--org",
        await slug(),
        "--email",
        "x@example.com",
        "--role",
        "king",
        "--json",
      ),
    ).toMatchObject({ code: 1, err: JSON.stringify({ error: "Choose a role: member, admin or owner." }) });
  });
});
