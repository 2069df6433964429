import { Film, Home, Library, Users, type LucideIcon } from 'lucide-react';

/** The main navigation, shared by the header and its mobile menu. */
export const NAV_LINKS: { href: string; label: string; icon: LucideIcon }[] = [
  { href: '/', label: 'Home', icon: Home },
  { href: '/library', label: 'Library', icon: Library },
  { href: '/saved', label: 'My Videos', icon: Film },
  { href: '/people', label: 'People', icon: Users },
];

export function isActive(location: string, href: string): boolean {
  return href === '/' ? location === '/' : location === href || location.startsWith(`${href}/`);
}
