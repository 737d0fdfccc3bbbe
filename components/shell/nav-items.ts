import { Building2, Cable, LayoutDashboard, type LucideIcon, Users } from "lucide-react";

export interface NavItem {
  href: string;
  label: string;
  icon: LucideIcon;
  adminOnly?: boolean;
}

/** The sections of the app; later sections join this list as they are built. */
export const navItems: NavItem[] = [
  { href: "/", label: "Overview", icon: LayoutDashboard },
  { href: "/integrations", label: "Integrations", icon: Cable },
  { href: "/settings/members", label: "Members", icon: Users },
  { href: "/organizations/new", label: "New organization", icon: Building2 },
];
