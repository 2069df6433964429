import { useQuery } from '@tanstack/react-query';
import type { DataExport } from '@shared/api-types';

export function latestExportQueryKey(userId: number) {
  return ['/api/users', userId, 'exports', 'latest'] as const;
}

/** While the zip is being prepared, look again this often for its progress. */
export const EXPORT_POLL_MS = 1000;

export function isPreparing(dataExport: DataExport | null | undefined): boolean {
  return dataExport?.status === 'pending' || dataExport?.status === 'processing';
}

/** A finished zip whose link can no longer be asked for (the server deletes it then). */
export function isExpired(dataExport: DataExport, now = Date.now()): boolean {
  return new Date(dataExport.expiresAt).getTime() <= now;
}

/** GET /api/users/{id}/exports/latest: the last 'Download my data' (null when none), polled while it is prepared. */
export function useLatestExport(userId: number | undefined) {
  return useQuery<DataExport | null>({
    queryKey: latestExportQueryKey(userId ?? 0),
    enabled: userId !== undefined,
    refetchOnMount: 'always',
    select: (dataExport) => dataExport ?? null,
    refetchInterval: (query) => (isPreparing(query.state.data) ? EXPORT_POLL_MS : false),
  });
}
