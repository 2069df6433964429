/** The main navigation, shared by the header and its mobile menu (the menus add icons: nav-link-icons.ts). */
export const NAV_LINKS: { href: string; label: string }[] = [
  { href: '/', label: 'Home' },
  { href: '/library', label: 'Library' },
  { href: '/saved', label: 'My Videos' },
  { href: '/people', label: 'People' },
];

/** The other way to make a video (the parent's own film, the person's voice), beside Create Video in the menus. */
export const VOICE_ONLY_LINK: { href: string; label: string } = { href: '/voice-only', label: 'Voice-only video' };

export function isActive(location: string, href: string): boolean {
  return href === '/' ? location === '/' : location === href || location.startsWith(`${href}/`);
}
