import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The SPA is served under /content by the API server (SPEC.md section 2). The server's CSP allows
 * scripts and styles from 'self' only, so nothing is inlined: no inline script, CSS in files, and
 * assets (the logo) as files rather than data URIs.
 */
export default defineConfig({
  base: '/content/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, assetsInlineLimit: 0 },
  server: { port: 5173, strictPort: true },
});
