import type { ComponentProps, HTMLAttributes } from "react";
import { cn } from "@/lib/cn";

export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  // min-w-0: in a grid or flex row, a card shrinks to its track and its wide content scrolls inside it.
  return <div className={cn("min-w-0 rounded-lg border bg-card p-5 shadow-xs", className)} {...props} />;
}

// React 19 passes `ref` as a prop, so a page can move focus to a card's title.
export function CardTitle({ className, ...props }: ComponentProps<"h2">) {
  return <h2 className={cn("text-base font-semibold", className)} {...props} />;
}

export function CardDescription({ className, ...props }: HTMLAttributes<HTMLParagraphElement>) {
  return <p className={cn("mt-1 text-sm text-muted-foreground", className)} {...props} />;
}
