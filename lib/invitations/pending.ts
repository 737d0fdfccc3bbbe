import { and, gt, isNull, sql } from "drizzle-orm";
import { invitations } from "@/db/schema";

/** Not used, not withdrawn and not expired, by the database's clock (the one acceptance is checked against). */
export const isPendingInvitation = () =>
  and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, sql`now()`));
