import { defineConfig } from 'vite';
import { spaConfig } from '../../scripts/spa-vite.ts';

/**
 * The SPA is served under /content by the API server (SPEC.md section 2); what it builds like the
 * operator console is in scripts/spa-vite.ts. The manifest lets the benchmark find what the login
 * route loads (bench/lib/spa-size.ts).
 */
export default defineConfig(spaConfig({ base: '/content/', build: { manifest: true }, server: { port: 5173 } }));
