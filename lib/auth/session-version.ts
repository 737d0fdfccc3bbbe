import { sql } from "drizzle-orm";
import { users } from "@/db/schema";

/** The `set` value that ends every session of a user: tokens carry the old version, which no longer matches. */
export const nextSessionVersion = () => sql`${users.sessionVersion} + 1`;
