import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { DEVELOPMENT_LOOKUP_KEY } from './lib/secrets.ts';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, databaseUrl: 'sqlite:./data/sso.db', publicOrigin: 'http://localhost:8080', seedDemo: true, env: 'development' });
    expect(c.clientsFile).toMatch(/config\/clients\.json$/);
    expect(c.cardMasterFile).toMatch(/config\/demo-cards\.json$/);
    expect(c.smtpUrl).toBeUndefined();
    expect(c.smtpSinkPort).toBe(1025);
    expect(c.mailFrom).toContain('メンバーID');
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
    expect(loadConfig({ ...withMail, LOOKUP_KEY: key })).toMatchObject({ seedDemo: false, lookupKey: key });
  });
});
