import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { VideoTemplate } from '@shared/api-types';
import type { TemplateCreateInput } from '@shared/template-rules';
import { apiRequest, uploadWithProgress } from '@client/lib/api';
import { toast } from '@client/components/ui/use-toast';

export const adminTemplatesQueryKey = ['/api/admin/videoTemplates'] as const;

export function useAdminTemplates() {
  return useQuery<VideoTemplate[]>({ queryKey: adminTemplatesQueryKey });
}

/** Every template list the app holds (admin, library, featured, one template) is out of date. */
function refreshTemplates(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: adminTemplatesQueryKey }),
    queryClient.invalidateQueries({ queryKey: ['/api/videoTemplates'] }),
    queryClient.invalidateQueries({ queryKey: ['/api/videoTemplates/featured'] }),
    queryClient.invalidateQueries({ queryKey: ['/api/admin/analytics'] }),
  ]);
}

const failed = (title: string) => (error: Error) =>
  toast({ variant: 'destructive', title, description: error.message || 'An unknown error occurred' });

export function useCreateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TemplateCreateInput) => apiRequest<VideoTemplate>('POST', '/api/admin/videoTemplates', input),
    onSuccess: async (template) => {
      toast({ title: 'Template created', description: `"${template.title}" is in the library.` });
      await refreshTemplates(queryClient);
    },
    onError: failed('Failed to create template'),
  });
}

export function useUpdateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: Partial<TemplateCreateInput> }) =>
      apiRequest<VideoTemplate>('PATCH', `/api/admin/videoTemplates/${id}`, changes),
    onSuccess: async (template) => {
      toast({ title: 'Template updated', description: `"${template.title}" was saved.` });
      await refreshTemplates(queryClient);
    },
    onError: failed('Failed to update template'),
  });
}

export function useDeleteTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (template: VideoTemplate) => apiRequest<void>('DELETE', `/api/admin/videoTemplates/${template.id}`),
    onSuccess: async (_result, template) => {
      toast({ title: 'Template deleted', description: `"${template.title}" was removed.` });
      await refreshTemplates(queryClient);
    },
    onError: failed('Deletion Failed'),
  });
}

/** POST /api/admin/videoTemplates/upload with upload progress (0–100). */
export function useUploadTemplate(onProgress: (percent: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) => uploadWithProgress<VideoTemplate>('/api/admin/videoTemplates/upload', form, onProgress),
    onSuccess: async (template) => {
      toast({ title: 'Template uploaded', description: `"${template.title}" (${template.duration} s) is in the library.` });
      await refreshTemplates(queryClient);
    },
    onError: failed('Upload Failed'),
  });
}
