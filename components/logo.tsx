import { Cable } from "lucide-react";

export function Logo() {
  return (
    <span className="inline-flex h-7 w-7 items-center justify-center rounded-md bg-primary text-primary-foreground">
      <Cable className="h-4 w-4" aria-hidden />
    </span>
  );
}
