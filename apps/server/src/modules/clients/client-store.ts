import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { bumpRegistryVersion, countClients, insertClient, insertClientSecret, readRegistry, registryVersion } from './client-repo.ts';
import { clientDefinitionSchema, registryOf, type ClientEntry, type ClientRegistry } from './clients.ts';

/**
 * The client registry of the database (decision 0031): the flows read a snapshot in memory, as
 * synchronously as they read CLIENTS_FILE's before; each node polls the registry's version every
 * CLIENTS_REFRESH_MS and reloads the clients when it moved, and the node that makes a change reloads
 * at once (`reload`).
 */
export interface ClientStore extends ClientRegistry {
  /** The version of the snapshot the flows see. */
  version(): number;
  /** Reads the clients again now (after a change on this node). */
  reload(): Promise<void>;
  /** Starts polling the version every `refreshMs`; a failed poll is logged and the snapshot kept. */
  startPolling(log: { warn(obj: object, msg: string): void }): void;
  /** Stops polling (the app's close), once a poll under way has finished, before the database closes. */
  close(): Promise<void>;
}

interface StoreDeps {
  db: Kysely<Database>;
  clock: Clock;
  publicOrigin: string;
  refreshMs: number;
}

/** The snapshot's entries from the rows: each definition validated again, each secret with its retirement. */
async function readEntries(db: Kysely<Database>): Promise<{ version: number; entries: ClientEntry[] }> {
  const { version, clients, secrets } = await readRegistry(db);
  const entries = clients.map((row) => ({
    definition: clientDefinitionSchema.parse(JSON.parse(row.definition)),
    enabled: Number(row.enabled) === 1,
    secrets: secrets
      .filter((s) => s.client_id === row.client_id)
      .map((s) => ({ sha256: s.secret_sha256, retireAt: s.retire_at === null ? null : Number(s.retire_at) })),
  }));
  return { version, entries };
}

export async function openClientStore(deps: StoreDeps): Promise<ClientStore> {
  const now = () => deps.clock.now();
  const first = await readEntries(deps.db);
  let snapshot = { version: first.version, registry: registryOf(first.entries, deps.publicOrigin, now) };
  let timer: NodeJS.Timeout | undefined;
  let polling: Promise<void> | undefined;

  const reload = async () => {
    const next = await readEntries(deps.db);
    // Two reloads may cross: an older read never replaces a newer snapshot.
    if (next.version >= snapshot.version) snapshot = { version: next.version, registry: registryOf(next.entries, deps.publicOrigin, now) };
  };
  const poll = async () => {
    if ((await registryVersion(deps.db)) !== snapshot.version) await reload();
  };

  return {
    get: (id) => snapshot.registry.get(id),
    all: () => snapshot.registry.all(),
    listAll: () => snapshot.registry.listAll(),
    redirectUris: () => snapshot.registry.redirectUris(),
    webOrigins: () => snapshot.registry.webOrigins(),
    isRegisteredRedirect: (client, uri) => snapshot.registry.isRegisteredRedirect(client, uri),
    isRegisteredPostLogoutRedirect: (client, uri) => snapshot.registry.isRegisteredPostLogoutRedirect(client, uri),
    authenticate: (client, secret) => snapshot.registry.authenticate(client, secret),
    version: () => snapshot.version,
    reload,
    startPolling: (log) => {
      if (timer) return;
      timer = setInterval(() => {
        // One poll at a time: a slow database is not asked again before it answered.
        if (polling) return;
        polling = poll()
          .catch((err: unknown) => log.warn({ err }, 'client registry refresh failed; the clients read before stay in use'))
          .finally(() => {
            polling = undefined;
          });
      }, deps.refreshMs);
      timer.unref();
    },
    close: async () => {
      clearInterval(timer);
      timer = undefined;
      await polling;
    },
  };
}

/** The id of an imported secret: fixed, so that two nodes importing at once write it once. */
const importedSecretId = (clientId: string, i: number) => `imported-${clientId}-${i}`;

/**
 * The first start's import (decision 0031): when the database has no client, CLIENTS_FILE's
 * entries (`load`, read only then) are written, enabled, with their secrets; later starts read the
 * database and ignore the file. Of several nodes starting at once, each insert happens once.
 * Returns how many clients this start imported (0: the database had clients).
 */
export async function importClientsIfEmpty(db: Kysely<Database>, load: () => ClientEntry[], now: number): Promise<number> {
  if ((await countClients(db)) > 0) return 0;
  const entries = load();
  return db.transaction().execute(async (trx) => {
    let imported = 0;
    for (const e of entries) {
      const row = { client_id: e.definition.client_id, definition: JSON.stringify(e.definition), enabled: 1, created_at: now, updated_at: now };
      if (!(await insertClient(trx, row))) continue;
      imported++;
      for (const [i, s] of e.secrets.entries()) {
        await insertClientSecret(trx, { id: importedSecretId(e.definition.client_id, i), client_id: e.definition.client_id, secret_sha256: s.sha256, created_at: now, retire_at: s.retireAt });
      }
    }
    if (imported > 0) await bumpRegistryVersion(trx);
    return imported;
  });
}

/**
 * Whether CLIENTS_FILE's entries differ from the database's clients (definitions, enabled flags,
 * secrets without a retire time): a later start logs one line then, since it no longer reads the
 * file (decision 0031).
 */
export async function clientsFileDiffers(db: Kysely<Database>, fromFile: readonly ClientEntry[]): Promise<boolean> {
  const key = (entries: readonly ClientEntry[]) =>
    JSON.stringify(
      [...entries]
        .sort((a, b) => a.definition.client_id.localeCompare(b.definition.client_id))
        .map((e) => [e.definition, e.enabled, e.secrets.filter((s) => s.retireAt === null).map((s) => s.sha256).sort()]),
    );
  return key(fromFile) !== key((await readEntries(db)).entries);
}

/**
 * The enabled clients of the database whose secret, not yet retired, is docs/demo.md's published
 * `demo-secret-<client_id>`: a production start refuses them, as config.ts refuses them in
 * CLIENTS_FILE (a registry first filled from a demo file keeps them after the file has changed).
 */
export function clientsWithDemoSecrets(clients: ClientStore): string[] {
  return clients
    .listAll()
    .filter((e) => e.enabled && e.client.type === 'confidential' && clients.authenticate(e.client, `demo-secret-${e.client.client_id}`))
    .map((e) => e.client.client_id);
}
