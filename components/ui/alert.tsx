import type { ReactNode } from "react";
import { cn } from "@/lib/cn";

export function Alert({
  tone = "error",
  children,
}: {
  tone?: "error" | "success" | "info";
  children: ReactNode;
}) {
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={cn(
        "rounded-md border px-3 py-2 text-sm",
        tone === "error" && "border-destructive/40 bg-destructive/10 text-destructive",
        tone === "success" && "border-success/40 bg-success/10 text-success",
        tone === "info" && "bg-muted text-muted-foreground",
      )}
    >
      {children}
    </div>
  );
}
