import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './api';

// Data changes only through this client's own mutations, so nothing refetches on its own (spec 01 §9).
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: 'throw' }),
      refetchInterval: false,
      refetchOnWindowFocus: false,
      staleTime: Infinity,
      retry: false,
    },
    mutations: { retry: false },
  },
});
