import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, REPO_ROOT } from './config.ts';
import { DEVELOPMENT_LOOKUP_KEY, DEVELOPMENT_PAIRWISE_KEY, DEVELOPMENT_SIGNING_KEY_SECRET, sha256 } from './lib/secrets.ts';

/** config/clients.json with each entry changed by `change`, written to a file of its own. */
function clientsFile(change: (c: { client_id: string; secret_sha256?: string }) => object): string {
  const clients = JSON.parse(readFileSync(`${REPO_ROOT}config/clients.json`, 'utf8')) as { client_id: string; secret_sha256?: string }[];
  const file = join(mkdtempSync(join(tmpdir(), 'sso-config-test-')), 'clients.json');
  writeFileSync(file, JSON.stringify(clients.map(change)));
  return file;
}

/** What makes a production start safe beyond the older checks: reCAPTCHA, the staging opt-in, clients with secrets of their own. */
const SAFE = {
  PAIRWISE_KEY: 'p'.repeat(32),
  SIGNING_KEY_SECRET: 's'.repeat(32),
  RECAPTCHA_SECRET: 'a-recaptcha-secret',
  ALLOW_SIMULATORS: 'staging',
  CLIENTS_FILE: clientsFile((c) => (c.secret_sha256 ? { ...c, secret_sha256: sha256(`own-secret-${c.client_id}`) } : c)),
};

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, databaseUrl: 'sqlite:./data/sso.db', publicOrigin: 'http://localhost:8080', seedDemo: true, env: 'development' });
    expect(c.clientsFile).toMatch(/config\/clients\.json$/);
    expect(c.cardMasterFile).toMatch(/config\/demo-cards\.json$/);
    expect(c.smtpUrl).toBeUndefined();
    expect(c.smtpSinkPort).toBe(1025);
    expect(c.mailFrom).toContain('メンバーID');
    expect(c).toMatchObject({ activityRetentionDays: 400, auditRetentionDays: 2555 });
    expect(loadConfig({ ACTIVITY_RETENTION_DAYS: '730' }).activityRetentionDays).toBe(730);
  });

  it('traces only when OTEL_EXPORTER_OTLP_ENDPOINT is set, to its /v1/traces (docs/operations.md "Tracing")', () => {
    expect(loadConfig({}).tracing).toBeUndefined();
    expect(loadConfig({ OTEL_SERVICE_NAME: 'sso-tokyo' }).tracing).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).tracing).toEqual({ tracesUrl: 'http://collector:4318/v1/traces', serviceName: 'member-sso' });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example.com/ingest/', OTEL_SERVICE_NAME: 'sso-tokyo' }).tracing).toEqual({
      tracesUrl: 'https://otel.example.com/ingest/v1/traces',
      serviceName: 'sso-tokyo',
    });
  });

  it('never echoes OTEL_EXPORTER_OTLP_ENDPOINT, which may carry credentials', () => {
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://user:token@collector' })).toThrow('OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL (value not shown)');
  });

  it('accepts a PostgreSQL URL and an SMTP URL', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/sso', SMTP_URL: 'smtp://mail:25', PUBLIC_ORIGIN: 'https://id.example.com' });
    expect(c.databaseUrl).toBe('postgres://u@db:5432/sso');
    expect(c.publicOrigin).toBe('https://id.example.com');
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['PUBLIC_ORIGIN', 'https://id.example.com/path'],
    ['SMTP_URL', 'http://mail'],
    ['NODE_ENV', 'staging'],
    ['SEED_DEMO', 'yes'],
    ['SMTP_SINK_PORT', '-1'],
    ['ANALYTICS_SCRIPT_ORIGINS', "https://www.googletagmanager.com 'unsafe-inline'"],
    ['MONITORING_SCRIPT_ORIGINS', 'http://rum.example.net'],
    ['TRUST_PROXY', 'yes please'],
    ['LOGIN_ADDRESS_FAILURES', '-3'],
    ['ACTIVITY_RETENTION_DAYS', '0'],
    ['ACTIVITY_RETENTION_DAYS', 'a year'],
    ['RECAPTCHA_VERIFY_URL', 'ftp://recaptcha.example/siteverify'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'grpc://collector:4317'],
    ['OTEL_SERVICE_NAME', 'member sso'],
  ])('stops on a bad %s with one line naming it', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message.startsWith(`Invalid configuration: ${name} `)).toBe(true);
    expect(message).not.toContain('\n');
  });

  it('never echoes a secret or a URL that may carry credentials into the start-up error', () => {
    for (const [name, value] of [['LOOKUP_KEY', 'short-secret'], ['SMTP_URL', 'http://user:pw@mail'], ['DATABASE_URL', 'mysql://user:pw@db']]) {
      expect(() => loadConfig({ [name as string]: value })).toThrow(new RegExp(`^Invalid configuration: ${name} .*\\(value not shown\\)$`));
      expect(() => loadConfig({ [name as string]: value })).not.toThrow(/pw|short-secret/);
    }
  });

  it('reads TRUST_PROXY as nobody, anybody, or the listed proxies', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.1,2001:db8::/32' }).trustProxy).toEqual(['10.0.0.0/8', '192.0.2.1', '2001:db8::/32']);
  });

  it('requires PUBLIC_ORIGIN in production and seeds no demo data there by default', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PUBLIC_ORIGIN/);
    const production = { NODE_ENV: 'production', PUBLIC_ORIGIN: 'https://id.example.com' };
    expect(() => loadConfig(production)).toThrow(/SMTP_URL is required/);
    const withMail = { ...production, SMTP_URL: 'smtps://mail.example.com:465' };
    expect(() => loadConfig(withMail)).toThrow(/LOOKUP_KEY is required/);
    expect(() => loadConfig({ ...withMail, LOOKUP_KEY: DEVELOPMENT_LOOKUP_KEY })).toThrow(/not the development key/);
    expect(() => loadConfig({ ...withMail, LOOKUP_KEY: 'short' })).toThrow(/LOOKUP_KEY must be at least 32 characters/);
    const key = 'k'.repeat(32);
    expect(loadConfig({ ...withMail, LOOKUP_KEY: key, ...SAFE })).toMatchObject({ seedDemo: false, lookupKey: key });
  });

  it('drains SHUTDOWN_DRAIN_MS (10 s in production, 0 elsewhere) and closes within SHUTDOWN_TIMEOUT_MS (20 s)', () => {
    const production = { NODE_ENV: 'production', PUBLIC_ORIGIN: 'https://id.example.com', SMTP_URL: 'smtps://mail.example.com:465', LOOKUP_KEY: 'k'.repeat(32), ...SAFE };
    expect(loadConfig({})).toMatchObject({ shutdownDrainMs: 0, shutdownTimeoutMs: 20_000 });
    expect(loadConfig({ NODE_ENV: 'test' })).toMatchObject({ shutdownDrainMs: 0 });
    expect(loadConfig(production)).toMatchObject({ shutdownDrainMs: 10_000, shutdownTimeoutMs: 20_000 });
    expect(loadConfig({ ...production, SHUTDOWN_DRAIN_MS: '0', SHUTDOWN_TIMEOUT_MS: '5000' })).toMatchObject({ shutdownDrainMs: 0, shutdownTimeoutMs: 5000 });
    expect(() => loadConfig({ SHUTDOWN_DRAIN_MS: '-1' })).toThrow('Invalid configuration: SHUTDOWN_DRAIN_MS must be a whole number of milliseconds from 0 to 600000 (got "-1")');
    expect(() => loadConfig({ SHUTDOWN_DRAIN_MS: '10s' })).toThrow(/SHUTDOWN_DRAIN_MS must be a whole number/);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: '0' })).toThrow('Invalid configuration: SHUTDOWN_TIMEOUT_MS must be a whole number of milliseconds from 1 to 600000 (got "0")');
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: '600001' })).toThrow(/SHUTDOWN_TIMEOUT_MS must be a whole number/);
  });

  it('sizes the PostgreSQL pool by PG_POOL_MAX and bounds it by the PG_*_TIMEOUT_MS settings', () => {
    expect(loadConfig({}).postgresPool).toEqual({ max: 10, connectionTimeoutMs: 3_000, idleTimeoutMs: 10_000, statementTimeoutMs: 15_000 });
    const set = { PG_POOL_MAX: '40', PG_CONNECTION_TIMEOUT_MS: '1500', PG_IDLE_TIMEOUT_MS: '0', PG_STATEMENT_TIMEOUT_MS: '0' };
    expect(loadConfig(set).postgresPool).toEqual({ max: 40, connectionTimeoutMs: 1_500, idleTimeoutMs: 0, statementTimeoutMs: 0 });
    expect(() => loadConfig({ PG_POOL_MAX: '0' })).toThrow('Invalid configuration: PG_POOL_MAX must be a whole number of connections from 1 to 1000 (got "0")');
    expect(() => loadConfig({ PG_POOL_MAX: '2.5' })).toThrow(/PG_POOL_MAX must be a whole number/);
    expect(() => loadConfig({ PG_POOL_MAX: '1001' })).toThrow(/PG_POOL_MAX must be a whole number/);
    expect(() => loadConfig({ PG_CONNECTION_TIMEOUT_MS: '0' })).toThrow(/PG_CONNECTION_TIMEOUT_MS must be a whole number of milliseconds from 1/);
    expect(() => loadConfig({ PG_STATEMENT_TIMEOUT_MS: '15s' })).toThrow(/PG_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds from 0/);
    expect(() => loadConfig({ PG_IDLE_TIMEOUT_MS: '-1' })).toThrow(/PG_IDLE_TIMEOUT_MS must be a whole number of milliseconds from 0/);
  });

  it('refuses the development mail sink in production (no SMTP_URL): its packages are not installed there', () => {
    const production = { NODE_ENV: 'production', PUBLIC_ORIGIN: 'https://id.example.com', SMTP_URL: 'smtps://mail.example.com:465', LOOKUP_KEY: 'k'.repeat(32), ...SAFE };
    expect(loadConfig(production).smtpUrl).toBe('smtps://mail.example.com:465');
    const { SMTP_URL: _none, ...withoutMail } = production;
    expect(() => loadConfig(withoutMail)).toThrow('Invalid configuration: SMTP_URL is required when NODE_ENV=production (the development mail sink is neither run nor installed there)');
    expect(() => loadConfig({ ...withoutMail, SMTP_SINK_PORT: '1025' })).toThrow(/SMTP_URL is required/);
    expect(loadConfig({ SMTP_SINK_PORT: '2525' }).smtpSinkPort).toBe(2525);
  });

  it('serves the metrics on METRICS_PORT (9464) and METRICS_HOST (loopback), or on no port with METRICS_PORT=off', () => {
    expect(loadConfig({})).toMatchObject({ metricsPort: 9464, metricsHost: '127.0.0.1' });
    expect(loadConfig({ NODE_ENV: 'test', METRICS_PORT: '9100', METRICS_HOST: '10.0.0.5' })).toMatchObject({ metricsPort: 9100, metricsHost: '10.0.0.5' });
    expect(loadConfig({ METRICS_PORT: '0' }).metricsPort).toBe(0);
    expect(loadConfig({ METRICS_PORT: 'off' }).metricsPort).toBeUndefined();
    // Empty is unset, as for every variable: the default port.
    expect(loadConfig({ METRICS_PORT: '' }).metricsPort).toBe(9464);
    for (const bad of ['70000', '-1', 'none', '9464.5']) {
      expect(() => loadConfig({ METRICS_PORT: bad })).toThrow(`Invalid configuration: METRICS_PORT must be a port number, or off (got "${bad}")`);
    }
    expect(() => loadConfig({ PORT: '9000', METRICS_PORT: '9000' })).toThrow(
      'Invalid configuration: METRICS_PORT=9000 is PORT\'s too; the management listener needs a port of its own (or METRICS_PORT=off)',
    );
    expect(loadConfig({ PORT: '0', METRICS_PORT: '0' })).toMatchObject({ port: 0, metricsPort: 0 });
  });

  describe('a production start that would be unsafe', () => {
    const production = {
      NODE_ENV: 'production',
      PUBLIC_ORIGIN: 'https://id.example.com',
      SMTP_URL: 'smtps://mail.example.com:465',
      LOOKUP_KEY: 'k'.repeat(32),
      ...SAFE,
    };
    /** The one line a start stops with, or undefined when it starts. */
    const refusal = (env: Record<string, string | undefined>) => {
      try {
        loadConfig(env);
        return undefined;
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        expect((e as Error).message).not.toContain('\n');
        return (e as Error).message;
      }
    };

    it('starts with a reCAPTCHA secret, the staging opt-in and clients of their own', () => {
      expect(refusal(production)).toBeUndefined();
      expect(loadConfig(production).allowSimulators).toBe(true);
    });

    it('stops without a reCAPTCHA secret', () => {
      expect(refusal({ ...production, RECAPTCHA_SECRET: undefined })).toBe('Invalid configuration: RECAPTCHA_SECRET is required when NODE_ENV=production');
    });

    it('stops when the simulators would answer without ALLOW_SIMULATORS=staging, and on any other value', () => {
      expect(refusal({ ...production, ALLOW_SIMULATORS: undefined })).toBe(
        'Invalid configuration: the card master, Net Answer and SMS simulators are selected; set ALLOW_SIMULATORS=staging to run them with NODE_ENV=production',
      );
      expect(refusal({ ...production, ALLOW_SIMULATORS: 'yes' })).toBe('Invalid configuration: ALLOW_SIMULATORS must be staging (or unset) (got "yes")');
    });

    it('stops when the clients file carries the published demo secrets, naming the clients', () => {
      expect(refusal({ ...production, CLIENTS_FILE: undefined })).toBe(
        'Invalid configuration: CLIENTS_FILE carries the published demo secret of SIAP002, SIAP004; give each confidential client its own secret',
      );
      const one = clientsFile((c) => (c.client_id === 'SIAP004' ? { ...c, secret_sha256: sha256('its-own-secret') } : c));
      expect(refusal({ ...production, CLIENTS_FILE: one })).toMatch(/demo secret of SIAP002;/);
    });

    it('stops without its own pairwise key and signing key secret (decision 0025), never echoing them', () => {
      expect(refusal({ ...production, PAIRWISE_KEY: undefined })).toBe('Invalid configuration: PAIRWISE_KEY is required when NODE_ENV=production (and not the development key)');
      expect(refusal({ ...production, PAIRWISE_KEY: DEVELOPMENT_PAIRWISE_KEY })).toMatch(/PAIRWISE_KEY is required/);
      expect(refusal({ ...production, SIGNING_KEY_SECRET: undefined })).toBe(
        'Invalid configuration: SIGNING_KEY_SECRET is required when NODE_ENV=production (and not the development secret)',
      );
      expect(refusal({ ...production, SIGNING_KEY_SECRET: DEVELOPMENT_SIGNING_KEY_SECRET })).toMatch(/SIGNING_KEY_SECRET is required/);
      expect(refusal({ ...production, SIGNING_KEY_SECRET: 'short-secret' })).toBe('Invalid configuration: SIGNING_KEY_SECRET must be at least 32 characters of random text (value not shown)');
      expect(loadConfig(production)).toMatchObject({ pairwiseKey: SAFE.PAIRWISE_KEY, signingKeySecret: SAFE.SIGNING_KEY_SECRET });
    });

    it('stops when the demo members would be seeded (their passwords are published)', () => {
      expect(refusal({ ...production, SEED_DEMO: 'true' })).toBe(
        "Invalid configuration: SEED_DEMO=true is refused when NODE_ENV=production (the demo members' passwords are published)",
      );
      expect(refusal({ ...production, SEED_DEMO: 'false' })).toBeUndefined();
    });

    it('fails closed when NODE_ENV is forgotten: outside production it listens on this machine only', () => {
      expect(refusal({ HOST: '0.0.0.0' })).toBe(
        'Invalid configuration: HOST=0.0.0.0 with NODE_ENV=development would serve the development mailbox to the network; set NODE_ENV=production, or HOST=127.0.0.1',
      );
      expect(refusal({ NODE_ENV: 'test', HOST: '10.0.0.5' })).toMatch(/^Invalid configuration: HOST=10\.0\.0\.5 with NODE_ENV=test/);
      for (const host of ['127.0.0.1', '127.0.1.1', 'localhost', '::1']) expect(refusal({ HOST: host })).toBeUndefined();
      expect(refusal({ ...production, HOST: '0.0.0.0', ADMIN_ALLOWED_NETWORKS: '10.0.0.0/8' })).toBeUndefined();
    });

    it('stops on a wildcard bind without the operator console\'s address ranges (ADMIN_ALLOWED_NETWORKS), in one line', () => {
      for (const host of ['0.0.0.0', '::']) {
        expect(refusal({ ...production, HOST: host })).toBe(
          `Invalid configuration: ADMIN_ALLOWED_NETWORKS is required when NODE_ENV=production and HOST=${host} binds every address (the operator console would answer the whole network); name the staff's address ranges, or bind HOST to one interface`,
        );
      }
      expect(refusal({ ...production, HOST: '10.0.0.5' })).toBeUndefined();
      expect(refusal({ ...production, HOST: '::', ADMIN_ALLOWED_NETWORKS: '10.0.0.0/8, 2001:db8::/32, 192.0.2.7' })).toBeUndefined();
      expect(refusal({ ...production, HOST: '0.0.0.0', ADMIN_ALLOWED_NETWORKS: '10.0.0.0/33' })).toMatch(/^Invalid configuration: ADMIN_ALLOWED_NETWORKS must be comma-separated addresses or CIDR ranges/);
      expect(refusal({ ...production, ADMIN_ALLOWED_ORIGINS: 'https://console.example.com/path' })).toMatch(/^Invalid configuration: ADMIN_ALLOWED_ORIGINS must be comma-separated http\(s\):\/\/ origins/);
      expect(loadConfig({ ...production, HOST: '0.0.0.0', ADMIN_ALLOWED_NETWORKS: '10.0.0.0/8' })).toMatchObject({ adminAllowedNetworks: ['10.0.0.0/8'], adminAllowedOrigins: ['https://id.example.com'] });
      expect(loadConfig({}).adminAllowedOrigins).toEqual(['http://localhost:8080', 'http://localhost:5173']);
    });

    it('keeps development and test working with no settings at all', () => {
      expect(refusal({})).toBeUndefined();
      expect(refusal({ NODE_ENV: 'test' })).toBeUndefined();
      expect(loadConfig({}).allowSimulators).toBe(false);
    });
  });
});

