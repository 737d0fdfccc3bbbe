import { z } from "zod";
import { roles } from "@/lib/orgs/schemas";

export const invitationEmailSchema = z
  .string({ error: "Enter the email address of the person to invite." })
  .trim()
  .toLowerCase()
  .min(1, { error: "Enter the email address of the person to invite." })
  .pipe(z.email({ error: "Enter a valid email address, like name@example.com." }));

export const invitationRoleSchema = z.enum(roles, { error: "Choose a role: member, admin or owner." });

export const createInvitationSchema = z.object({
  email: invitationEmailSchema,
  role: invitationRoleSchema.default("member"),
});

/** What an invitation link leads to: only a pending one can be accepted. */
export type InvitationStatus = "pending" | "accepted" | "revoked" | "expired";
