import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The SPA is served under /content by the API server (SPEC.md section 2). */
export default defineConfig({
  base: '/content/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: { port: 5173, strictPort: true },
});
