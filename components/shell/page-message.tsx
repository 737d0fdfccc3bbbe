import Link from "next/link";
import type { ReactNode } from "react";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";

/** A page that only says something (not found, not allowed) and offers the ways back. */
export function PageMessage({
  title,
  children,
  links,
}: {
  title: string;
  children: ReactNode;
  links: { href: string; label: string }[];
}) {
  return (
    <Card className="mx-auto mt-8 grid max-w-lg gap-4">
      <h1 className="text-xl font-semibold" data-testid="page-message">
        {title}
      </h1>
      <div className="text-sm text-muted-foreground">{children}</div>
      <div className="flex flex-wrap gap-2">
        {links.map((link, index) => (
          <Link
            key={link.href}
            href={link.href}
            className={buttonClasses({ variant: index === 0 ? "primary" : "secondary" })}
          >
            {link.label}
          </Link>
        ))}
      </div>
    </Card>
  );
}
