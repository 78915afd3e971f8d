/** Dev-server port of Vite and the API port it talks to (SPEC.md section 7: "localhost port 8080"). */
const VITE_DEV_PORT = '5173';
const LOCAL_API = 'http://localhost:8080';

/**
 * The API base, derived from the page origin (SPEC.md section 7): the same origin when the server
 * serves the SPA, the local API when the page runs on the Vite development server.
 */
export function apiBase(location: { origin: string; port: string } = globalThis.location): string {
  return location.port === VITE_DEV_PORT ? LOCAL_API : location.origin;
}
