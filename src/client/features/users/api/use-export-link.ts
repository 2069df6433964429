import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MediaLink } from '@shared/video-rules';
import { apiRequest } from '@client/lib/api';
import { notifyError } from '@client/lib/notify';
import { auditQueryKey } from './use-audit';
import { latestExportQueryKey } from './use-latest-export';

/** A short-lived signed address that downloads the zip (no cookie needed, so the browser simply goes there). */
export function exportLink(userId: number, exportId: number): Promise<MediaLink> {
  return apiRequest<MediaLink>('POST', `/api/users/${userId}/exports/${exportId}/link`);
}

/** POST /api/users/{id}/exports/{exportId}/link, then the browser goes to the link, which downloads the zip. */
export function useDownloadExport(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (exportId: number) => exportLink(userId, exportId),
    onSuccess: async ({ url }) => {
      window.location.assign(url);
      await queryClient.invalidateQueries({ queryKey: auditQueryKey(userId) });
    },
    onError: async (error) => {
      notifyError(error.message);
      // Expired or gone: show what the server has now.
      await queryClient.invalidateQueries({ queryKey: latestExportQueryKey(userId) });
    },
  });
}
