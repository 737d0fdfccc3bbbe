import {
  AppWindow,
  BookOpen,
  Bot,
  Braces,
  Building2,
  Cable,
  Code,
  Cpu,
  Gauge,
  KeyRound,
  LayoutDashboard,
  type LucideIcon,
  MessageSquare,
  Plug,
  Users,
} from "lucide-react";

export interface NavItem {
  href: string;
  label: string;
  icon: LucideIcon;
  adminOnly?: boolean;
}

/** The sections of the app; later sections join this list as they are built. */
export const navItems: NavItem[] = [
  { href: "/", label: "Overview", icon: LayoutDashboard },
  { href: "/chat", label: "Chat", icon: MessageSquare },
  { href: "/agents", label: "Agents", icon: Bot },
  { href: "/integrations", label: "Integrations", icon: Cable },
  { href: "/capabilities", label: "Capabilities", icon: Code },
  { href: "/knowledge", label: "Knowledge", icon: BookOpen },
  { href: "/api-reference", label: "API", icon: Braces },
  { href: "/connect", label: "Connect a client", icon: Plug },
  { href: "/settings/members", label: "Members", icon: Users },
  { href: "/settings/api-keys", label: "API keys", icon: KeyRound, adminOnly: true },
  { href: "/settings/models", label: "Chat models", icon: Cpu, adminOnly: true },
  { href: "/settings/connected-apps", label: "Connected apps", icon: AppWindow },
  { href: "/admin", label: "Dashboard", icon: Gauge, adminOnly: true },
  { href: "/organizations/new", label: "New organization", icon: Building2 },
];
