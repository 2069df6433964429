import { useQuery } from '@tanstack/react-query';
import type { Entitlements } from '@shared/payments';

export function entitlementsQueryKey(userId: number) {
  return ['/api/users', userId, 'entitlements'] as const;
}

/**
 * GET /api/users/{id}/entitlements: which premium templates the user may use. Read afresh on every visit:
 * a purchase or a subscription is recorded by Stripe's webhook, outside this page. `pollMs` reads it again
 * that often.
 */
export function useEntitlements(userId: number | undefined, { pollMs }: { pollMs?: number } = {}) {
  return useQuery<Entitlements>({
    queryKey: entitlementsQueryKey(userId ?? 0),
    enabled: userId !== undefined,
    refetchOnMount: 'always',
    // Only while a payment just made waits for its webhook.
    refetchInterval: pollMs ?? false,
  });
}

/** True when the template is free, or premium and covered by the plan or a completed purchase. */
export function mayUseTemplate(template: { id: number; isPremium: boolean }, entitlements: Entitlements | undefined): boolean {
  if (!template.isPremium) return true;
  if (!entitlements) return false;
  return entitlements.allPremium || entitlements.purchasedTemplateIds.includes(template.id);
}
