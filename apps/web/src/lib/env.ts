/**
 * The API host is derived from the page origin (SPEC.md section 7): the same origin when the server
 * serves the SPA, localhost:8080 when the page runs on the Vite development server.
 */
export function apiBase(location: { origin: string; port: string; hostname: string } = globalThis.location): string {
  if (location.port === '5173') return `http://${location.hostname}:8080`;
  return location.origin;
}
