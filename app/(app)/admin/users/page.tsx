import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { UserAccessButton } from "@/components/admin/user-access-button";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { requireSignedInPage } from "@/lib/auth/request-context";
import { hasControlCharacters } from "@/lib/http/text-input";
import { searchUsers } from "@/lib/platform/platform-admin";

export const metadata: Metadata = { title: "Users" };

/** A superadmin's view of every account: search, memberships, and disabling one. */
export default async function UsersPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { db, ctx } = await requireSignedInPage();
  if (!ctx.isSuperadmin) notFound();
  const { q: raw } = await searchParams;
  const q = typeof raw === "string" ? raw : "";
  // Control characters are in no email or name, and Postgres refuses NUL in text: say so rather than fail.
  const invalid = hasControlCharacters(q);
  const found = invalid ? [] : await searchUsers(db, ctx, q);
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold">Users</h1>
      <search>
        <form className="flex max-w-md gap-2">
          <label htmlFor="user-search" className="sr-only">
            Search users
          </label>
          <Input id="user-search" name="q" defaultValue={q} placeholder="Email or name" />
          <Button type="submit" variant="secondary">
            Search
          </Button>
        </form>
      </search>
      <Card className="p-0">
        {invalid ? (
          <p className="p-5 text-sm text-destructive" role="alert">
            The search cannot contain control characters.
          </p>
        ) : found.length === 0 ? (
          <p className="p-5 text-sm text-muted-foreground">No user matches “{q}”.</p>
        ) : (
          <ul className="divide-y" aria-label="Users">
            {found.map((user) => (
              <li
                key={user.id}
                className="flex flex-wrap items-center gap-3 px-5 py-3"
                data-testid="user-row"
              >
                <div className="min-w-0 flex-1">
                  <p className="flex items-center gap-2 text-sm font-medium">
                    {user.email}
                    {user.isSuperadmin ? <Badge>Superadmin</Badge> : null}
                    {user.disabledAt ? <Badge className="text-destructive">Disabled</Badge> : null}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    {user.name} ·{" "}
                    {user.memberships.length
                      ? user.memberships.map((m) => `${m.orgName} (${m.role})`).join(", ")
                      : "no organization"}
                  </p>
                </div>
                {user.id === ctx.userId ? null : (
                  <UserAccessButton userId={user.id} email={user.email} disabled={Boolean(user.disabledAt)} />
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
