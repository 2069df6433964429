import { useQuery } from '@tanstack/react-query';
import type { PrivacySettings } from '@shared/api-types';

export const privacySettingsQueryKey = ['/api/privacy'] as const;

/** GET /api/privacy (public): how long raw clips and export zips are kept on this server. */
export function usePrivacySettings() {
  return useQuery<PrivacySettings>({ queryKey: privacySettingsQueryKey });
}
