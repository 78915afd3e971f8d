import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { LIMITS } from '@sso/contracts/constants';
import { router } from './app/router.tsx';
import './app/global.css';

/** Queries use a stale time of 3 s (SPEC.md section 7). */
const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: LIMITS.queryStaleMs } } });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
