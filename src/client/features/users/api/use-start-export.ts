import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DataExport } from '@shared/api-types';
import { apiRequest } from '@client/lib/api';
import { notifyError } from '@client/lib/notify';
import { auditQueryKey } from './use-audit';
import { latestExportQueryKey } from './use-latest-export';

export function startExport(userId: number): Promise<DataExport> {
  return apiRequest<DataExport>('POST', `/api/users/${userId}/exports`);
}

/**
 * POST /api/users/{id}/exports: the server prepares the zip in the background (202); the latest export is
 * followed from here. While one is already being prepared the server answers 409 with its own words.
 */
export function useStartExport(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => startExport(userId),
    onSuccess: async (dataExport) => {
      queryClient.setQueryData(latestExportQueryKey(userId), dataExport);
      await queryClient.invalidateQueries({ queryKey: auditQueryKey(userId) });
    },
    onError: async (error) => {
      notifyError(error.message);
      await queryClient.invalidateQueries({ queryKey: latestExportQueryKey(userId) });
    },
  });
}
