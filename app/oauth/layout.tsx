import type { ReactNode } from "react";
import { CenteredCard } from "@/components/shell/centered-card";

/** Pages of the authorization server a person sees (consent): the sign-in pages' frame, wider for the choices. */
export default function OAuthLayout({ children }: { children: ReactNode }) {
  return <CenteredCard wide>{children}</CenteredCard>;
}
