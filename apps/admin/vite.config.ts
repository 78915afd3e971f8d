import { defineConfig } from 'vite';
import { spaConfig } from '../../scripts/spa-vite.ts';

/**
 * The operator console (docs/decisions/0032-operator-identity.md): a build of its own, served under
 * /admin by the API server (apps/server/src/http/spa.ts), so that none of it reaches the member SPA's
 * bundle; what it builds like the member SPA is in scripts/spa-vite.ts. In development, /api goes to
 * the server on port 3000.
 */
export default defineConfig(spaConfig({ base: '/admin/', server: { port: 5174, proxy: { '/api': 'http://localhost:3000' } } }));
