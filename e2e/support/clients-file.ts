import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256, type ClientDefinition } from '@sso/server/test-support/internals';
import { ROOT } from './server.ts';

/** A confidential client registered for one journey: its definition and the secret it authenticates with. */
export interface RegisteredClient {
  definition: Partial<ClientDefinition> & Pick<ClientDefinition, 'client_id' | 'name' | 'redirect_uris'>;
  secret: string;
}

/** A fresh 256-bit client secret, as the operators hand one out (docs/partners.md section 1). */
export const newClientSecret = (): string => randomBytes(32).toString('base64url');

/**
 * config/clients.json with `extra` added, written into `dir` as the system's CLIENTS_FILE: the registry
 * a fresh system imports at its first start (decision 0031), so that a journey's relying party is
 * registered exactly as the operators would register it, its secret kept only as its SHA-256.
 */
export function clientsFileWith(dir: string, extra: readonly RegisteredClient[]): string {
  const demo = JSON.parse(readFileSync(join(ROOT, 'config/clients.json'), 'utf8')) as unknown[];
  const added = extra.map((c) => ({ type: 'confidential', ...c.definition, secret_sha256: sha256(c.secret) }));
  const file = join(dir, 'clients.json');
  writeFileSync(file, JSON.stringify([...demo, ...added], null, 2));
  return file;
}
