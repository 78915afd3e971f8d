import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

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

  it('requires PUBLIC_ORIGIN in production and seeds no demo data there by default', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PUBLIC_ORIGIN/);
    const production = { NODE_ENV: 'production', PUBLIC_ORIGIN: 'https://id.example.com' };
    expect(() => loadConfig(production)).toThrow(/SMTP_URL is required/);
    expect(loadConfig({ ...production, SMTP_URL: 'smtps://mail.example.com:465' }).seedDemo).toBe(false);
  });
});
