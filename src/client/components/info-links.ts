/** The pages about FamilyStar itself, open to everyone: in the landing page's footer and the app's. */
export const INFO_LINKS = [
  { href: '/about', label: 'About' },
  { href: '/terms', label: 'Terms' },
  { href: '/privacy', label: 'Privacy' },
  { href: '/contact', label: 'Contact' },
];
