import { useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { LIMITS } from '@sso/contracts/constants';

/** App-wide providers. Queries use a stale time of 3 s (SPEC.md section 7). */
export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: LIMITS.queryStaleMs } } }));
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
