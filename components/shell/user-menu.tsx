"use client";

import { LogOut, Monitor, Moon, Sun, UserCog } from "lucide-react";
import Link from "next/link";
import { useTheme } from "next-themes";
import { signOutAction } from "@/app/(app)/actions";
import { Dropdown, DropdownItem } from "@/components/ui/dropdown";
import { cn } from "@/lib/cn";

const themes = [
  { value: "light", label: "Light", icon: Sun },
  { value: "dark", label: "Dark", icon: Moon },
  { value: "system", label: "System", icon: Monitor },
] as const;

export function UserMenu({ user, role }: { user: { name: string; email: string }; role: string }) {
  const { theme, setTheme } = useTheme();
  const initials = user.name
    .split(/\s+/)
    .map((part) => part[0])
    .join("")
    .slice(0, 2)
    .toUpperCase();
  return (
    <Dropdown
      testId="user-menu"
      align="end"
      trigger={
        <>
          <span
            aria-hidden
            className="flex h-8 w-8 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground"
          >
            {initials || "?"}
          </span>
          <span className="sr-only">User menu: {user.name}</span>
        </>
      }
    >
      {() => (
        <div className="grid gap-1">
          <div className="px-2 py-1.5">
            <p className="truncate text-sm font-medium" data-testid="user-name">
              {user.name}
            </p>
            <p className="truncate text-xs text-muted-foreground">{user.email}</p>
            <p className="text-xs text-muted-foreground">Role: {role}</p>
          </div>
          <div className="border-t pt-1">
            <p className="px-2 py-1 text-xs text-muted-foreground">Theme</p>
            <fieldset className="grid grid-cols-3 gap-1 px-1">
              <legend className="sr-only">Theme</legend>
              {themes.map((option) => (
                <label
                  key={option.value}
                  className={cn(
                    "flex cursor-pointer flex-col items-center gap-1 rounded border px-1 py-1.5 text-xs hover:bg-muted has-focus-visible:outline-2 has-focus-visible:outline-ring",
                    theme === option.value && "border-primary",
                  )}
                >
                  <input
                    type="radio"
                    name="theme"
                    value={option.value}
                    className="sr-only"
                    checked={theme === option.value}
                    onChange={() => setTheme(option.value)}
                  />
                  <option.icon className="h-4 w-4" aria-hidden />
                  {option.label}
                </label>
              ))}
            </fieldset>
          </div>
          <div className="border-t pt-1">
            <Link
              href="/settings/account"
              className="flex w-full items-center gap-2 rounded px-2 py-1.5 text-left text-sm hover:bg-muted"
            >
              <UserCog className="h-4 w-4" aria-hidden /> Account
            </Link>
          </div>
          <form action={signOutAction} className="border-t pt-1">
            <DropdownItem type="submit">
              <LogOut className="h-4 w-4" aria-hidden /> Sign out
            </DropdownItem>
          </form>
        </div>
      )}
    </Dropdown>
  );
}
