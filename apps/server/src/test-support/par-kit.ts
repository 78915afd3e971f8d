import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { REPO_ROOT } from '../config.ts';
import { formBody } from './oauth-client.ts';

/**
 * Pushed authorization requests in the tests (RFC 9126; docs/decisions/0036-pushed-authorization-requests.md):
 * Net Answer (SIAP004) is the client that requires them.
 */
export const PAR_REQUIRED_CLIENT = 'SIAP004';

/** The demo registry with `clientId` requiring pushed requests (RFC 9126 section 5), for CLIENTS_FILE. */
export function requirePushedClientsFile(clientId = PAR_REQUIRED_CLIENT): string {
  const registry = JSON.parse(readFileSync(`${REPO_ROOT}config/clients.json`, 'utf8')) as { client_id: string }[];
  const file = join(mkdtempSync(join(tmpdir(), 'sso-par-')), 'clients.json');
  writeFileSync(file, JSON.stringify(registry.map((c) => (c.client_id === clientId ? { ...c, require_pushed_authorization_requests: true } : c))));
  return file;
}

/** POST /api/auth/par in process; expects 201 and answers the request_uri. */
export async function pushRequest(app: FastifyInstance, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/par',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: formBody(fields),
  });
  if (res.statusCode !== 201) throw new Error(`the push was refused: ${res.statusCode} ${res.body}`);
  return String(res.json().request_uri);
}
