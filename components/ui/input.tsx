import type { ComponentProps, SelectHTMLAttributes } from "react";
import { cn } from "@/lib/cn";

const field =
  "h-9 w-full rounded-md border bg-card px-3 text-sm shadow-xs outline-none focus-visible:ring-2 focus-visible:ring-ring aria-invalid:border-destructive";

// React 19 passes `ref` as a prop, so a caller can focus the field.
export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={cn(field, className)} {...props} />;
}

export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select className={cn(field, "pr-8", className)} {...props} />;
}
