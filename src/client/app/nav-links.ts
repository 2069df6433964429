import { Film, Home, Library, Mic, Users, type LucideIcon } from 'lucide-react';

/** The main navigation, shared by the header and its mobile menu. */
export const NAV_LINKS: { href: string; label: string; icon: LucideIcon }[] = [
  { href: '/', label: 'Home', icon: Home },
  { href: '/library', label: 'Library', icon: Library },
  { href: '/saved', label: 'My Videos', icon: Film },
  { href: '/people', label: 'People', icon: Users },
];

/** The other way to make a video (the parent's own film, the person's voice), beside Create Video in the menus. */
export const VOICE_ONLY_LINK: { href: string; label: string; icon: LucideIcon } = { href: '/voice-only', label: 'Voice-only video', icon: Mic };

export function isActive(location: string, href: string): boolean {
  return href === '/' ? location === '/' : location === href || location.startsWith(`${href}/`);
}
