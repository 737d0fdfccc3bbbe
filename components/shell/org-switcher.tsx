"use client";

import { Check, ChevronsUpDown, Plus } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { switchOrganizationAction } from "@/app/(app)/actions";
import { Dropdown, DropdownItem } from "@/components/ui/dropdown";
import type { UserOrganization } from "@/lib/orgs/memberships";

export function OrgSwitcher({
  organizations,
  activeOrgId,
}: {
  organizations: UserOrganization[];
  activeOrgId: string;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();
  const active = organizations.find((org) => org.id === activeOrgId);
  return (
    <div>
      <Dropdown
        testId="org-switcher"
        className="rounded-md border"
        trigger={
          <>
            <span className="grid min-w-0 flex-1">
              <span className="sr-only">Organization: </span>
              <span className="truncate font-medium" data-testid="active-org">
                {active?.name}
              </span>
              <span className="truncate text-xs text-muted-foreground">{active?.role}</span>
              <span className="sr-only">. Switch organization</span>
            </span>
            <ChevronsUpDown className="h-4 w-4 shrink-0 text-muted-foreground" aria-hidden />
          </>
        }
      >
        {(close) => (
          <div role="menu" aria-label="Organizations">
            {organizations.map((org) => (
              <DropdownItem
                key={org.id}
                role="menuitemradio"
                aria-checked={org.id === activeOrgId}
                disabled={pending}
                onClick={() => {
                  close();
                  if (org.id === activeOrgId) return;
                  startTransition(async () => {
                    const result = await switchOrganizationAction(org.id);
                    setError(result.error);
                    router.refresh();
                  });
                }}
              >
                <Check className={org.id === activeOrgId ? "h-4 w-4" : "h-4 w-4 invisible"} aria-hidden />
                <span className="flex-1 truncate">{org.name}</span>
                <span className="text-xs text-muted-foreground">{org.role}</span>
              </DropdownItem>
            ))}
            <div className="my-1 border-t" />
            <Link
              href="/organizations/new"
              role="menuitem"
              onClick={close}
              className="flex items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-muted"
            >
              <Plus className="h-4 w-4" aria-hidden /> New organization
            </Link>
          </div>
        )}
      </Dropdown>
      {error ? <p className="mt-1 text-xs text-destructive">{error}</p> : null}
    </div>
  );
}
