import { useQuery } from '@tanstack/react-query';
import type { AuditEntry } from '@shared/api-types';

export function auditQueryKey(userId: number) {
  return ['/api/users', userId, 'audit'] as const;
}

/** GET /api/users/{id}/audit: the account's log, newest first; read afresh on every visit (consent changes elsewhere). */
export function useAudit(userId: number | undefined) {
  return useQuery<AuditEntry[]>({
    queryKey: auditQueryKey(userId ?? 0),
    enabled: userId !== undefined,
    refetchOnMount: 'always',
  });
}
