import type { ReactNode } from "react";
import { CenteredCard } from "@/components/shell/centered-card";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return <CenteredCard>{children}</CenteredCard>;
}
