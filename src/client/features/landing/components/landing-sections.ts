/** The landing page sections its header links to (anchor scroll). */
export const LANDING_SECTIONS = [
  { id: 'how-it-works', label: 'How It Works' },
  { id: 'pricing', label: 'Pricing' },
] as const;
