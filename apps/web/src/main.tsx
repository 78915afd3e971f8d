import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { routes } from './app/router.tsx';
import { startAnalytics } from './lib/analytics.ts';
import { currentSettings } from './lib/env.ts';
import { configuredMonitoringLoader, startMonitoring } from './lib/monitoring.ts';
import './app/global.css';

const settings = currentSettings();
startAnalytics(settings.analyticsContainerId);
startMonitoring(settings, configuredMonitoringLoader());

const router = createBrowserRouter(routes, { basename: '/content' });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
