// The navigation's icons, for the menus only: the header's own links have none, so the shell, which a
// visitor's page loads, does without them (decision 005).
import { Film, Home, Library, Mic, Users, type LucideIcon } from 'lucide-react';

const ICONS: Record<string, LucideIcon> = {
  '/': Home,
  '/library': Library,
  '/saved': Film,
  '/people': Users,
  '/voice-only': Mic,
};

/** The icon of a link of nav-links.ts, by its address. */
export function NavLinkIcon({ href }: { href: string }) {
  const Icon = ICONS[href];
  return Icon ? <Icon aria-hidden="true" /> : null;
}
