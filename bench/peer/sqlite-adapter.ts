import Database from 'better-sqlite3';
import type { Adapter, AdapterPayload } from 'oidc-provider';

/**
 * A durable store for node-oidc-provider as the benchmark's peer (docs/performance.md): one SQLite
 * file on the disk, set up as the product's SQLite (decision 0008: WAL, `synchronous = NORMAL`,
 * statements prepared once), one table of every model's documents keyed by model and id, with the
 * indexes its adapter interface looks up by (grant id, session uid, user code). Its default in-memory
 * store is an LRU of 1,000 entries that loses sessions under load and keeps nothing across a
 * restart: no deployment runs it, so the peer is measured with a store a deployment would have.
 * better-sqlite3, the product's own SQLite driver, runs its statements on the event loop as there.
 */
export function sqliteAdapter(file: string): (model: string) => Adapter {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`
    CREATE TABLE IF NOT EXISTS oidc (
      model TEXT NOT NULL, id TEXT NOT NULL, payload TEXT NOT NULL,
      grant_id TEXT, uid TEXT, user_code TEXT, expires_at INTEGER,
      PRIMARY KEY (model, id)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS oidc_grant ON oidc (grant_id);
    CREATE INDEX IF NOT EXISTS oidc_uid ON oidc (model, uid);
    CREATE INDEX IF NOT EXISTS oidc_user_code ON oidc (model, user_code);
  `);
  const upsert = db.prepare(
    `INSERT INTO oidc (model, id, payload, grant_id, uid, user_code, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at`,
  );
  const live = '(expires_at IS NULL OR expires_at > ?)';
  const find = db.prepare(`SELECT payload FROM oidc WHERE model = ? AND id = ? AND ${live}`);
  const findByUid = db.prepare(`SELECT payload FROM oidc WHERE model = ? AND uid = ? AND ${live}`);
  const findByUserCode = db.prepare(`SELECT payload FROM oidc WHERE model = ? AND user_code = ? AND ${live}`);
  const consume = db.prepare(`UPDATE oidc SET payload = json_set(payload, '$.consumed', ?) WHERE model = ? AND id = ?`);
  const destroy = db.prepare('DELETE FROM oidc WHERE model = ? AND id = ?');
  const revoke = db.prepare('DELETE FROM oidc WHERE grant_id = ?');
  const payloadOf = (row: unknown): AdapterPayload | undefined => (row ? (JSON.parse((row as { payload: string }).payload) as AdapterPayload) : undefined);
  const now = () => Math.floor(Date.now() / 1000);
  return (model) => ({
    upsert: async (id, payload, expiresIn) => {
      upsert.run(model, id, JSON.stringify(payload), payload.grantId ?? null, payload.uid ?? null, payload.userCode ?? null, expiresIn ? now() + expiresIn : null);
    },
    find: async (id) => payloadOf(find.get(model, id, now())),
    findByUid: async (uid) => payloadOf(findByUid.get(model, uid, now())),
    findByUserCode: async (userCode) => payloadOf(findByUserCode.get(model, userCode, now())),
    consume: async (id) => {
      consume.run(now(), model, id);
    },
    destroy: async (id) => {
      destroy.run(model, id);
    },
    revokeByGrantId: async (grantId) => {
      revoke.run(grantId);
    },
  });
}
