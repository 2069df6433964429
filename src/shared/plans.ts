// The one plan catalogue: the landing page, the admin Subscriptions tab and the server's limits read it.

export type PlanId = 'free' | 'premium' | 'family';

export interface Plan {
  id: PlanId;
  name: string;
  /** Monthly price in cents; shown in dollars with 2 decimals. */
  priceCents: number;
  maxPeople: number;
  /** null means unlimited. */
  videosPerMonth: number | null;
  premiumTemplates: boolean;
  features: string[];
}

export const PLANS: readonly Plan[] = [
  {
    id: 'free',
    name: 'Free',
    priceCents: 0,
    maxPeople: 1,
    videosPerMonth: 3,
    premiumTemplates: false,
    features: ['1 profile', 'Free templates only', '3 videos per month'],
  },
  {
    id: 'premium',
    name: 'Premium',
    priceCents: 999,
    maxPeople: 5,
    videosPerMonth: null,
    premiumTemplates: true,
    features: ['5 profiles', 'Premium templates', 'Unlimited videos'],
  },
  {
    id: 'family',
    name: 'Family Pack',
    priceCents: 1999,
    maxPeople: 10,
    videosPerMonth: null,
    premiumTemplates: true,
    features: ['10 profiles', 'Premium templates', 'Unlimited videos'],
  },
];

export const PLAN_IDS = ['free', 'premium', 'family'] as const satisfies readonly PlanId[];

export function planById(id: PlanId): Plan {
  const plan = PLANS.find((candidate) => candidate.id === id);
  if (!plan) throw new Error(`Unknown plan ${id}`);
  return plan;
}

/** "$9.99" from 999 cents. */
export function formatDollars(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}
