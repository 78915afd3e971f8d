import { describe, expect, it } from 'vitest';
import { apiBase, envConfigFrom, envSettings, environmentOf, newsletterDefault } from './env.ts';

describe('API base from the page origin', () => {
  it('is the page origin when the server serves the SPA', () => {
    expect(apiBase({ origin: 'https://id.example.com', port: '' })).toBe('https://id.example.com');
    expect(apiBase({ origin: 'http://localhost:8080', port: '8080' })).toBe('http://localhost:8080');
  });

  it('is the local API on port 8080 when the page runs on the Vite dev server', () => {
    expect(apiBase({ origin: 'http://localhost:5173', port: '5173' })).toBe('http://localhost:8080');
  });
});

describe('environment of a host', () => {
  it('is local for localhost and the loopback addresses', () => {
    expect(environmentOf('localhost')).toBe('local');
    expect(environmentOf('127.0.0.1')).toBe('local');
    expect(environmentOf('[::1]')).toBe('local');
    expect(environmentOf('LOCALHOST')).toBe('local');
  });

  it('is dev for a host starting with dev. or containing .dev.', () => {
    expect(environmentOf('dev.id.example.com')).toBe('dev');
    expect(environmentOf('id.dev.example.com')).toBe('dev');
    expect(environmentOf('Dev.Example.com')).toBe('dev');
  });

  it('is staging for a stg or staging label', () => {
    expect(environmentOf('stg.id.example.com')).toBe('staging');
    expect(environmentOf('id.staging.example.com')).toBe('staging');
  });

  it('is production otherwise, including look-alikes and a .dev top-level domain', () => {
    expect(environmentOf('id.example.com')).toBe('production');
    expect(environmentOf('devices.example.com')).toBe('production');
    expect(environmentOf('example.dev')).toBe('production');
    expect(environmentOf('mystg.example.com')).toBe('production');
    expect(environmentOf('127.0.0.2')).toBe('production');
  });
});

describe('newsletter default from configuration', () => {
  it('is ticked only for the text true', () => {
    expect(newsletterDefault('true')).toBe(true);
    for (const v of [undefined, '', 'false', 'TRUE', '1']) expect(newsletterDefault(v)).toBe(false);
  });
});

describe('settings of an environment from the build configuration', () => {
  const config = envConfigFrom({
    MODE: 'production',
    VITE_HOST_PRODUCTION: 'id.example.co.jp',
    VITE_HOST_STAGING: 'id-stg.example.co.jp',
    VITE_HOST_DEV: 'id-dev.example.co.jp',
    VITE_ANALYTICS_CONTAINER_ID_PRODUCTION: 'GTM-PROD',
    VITE_ANALYTICS_CONTAINER_ID_STAGING: 'GTM-STG',
    VITE_RECAPTCHA_SITE_KEY: 'key-any',
    VITE_RECAPTCHA_SITE_KEY_PRODUCTION: 'key-prod',
  });
  const at = (hostname: string, port = '') => envSettings({ hostname, origin: `https://${hostname}`, port }, config);

  it('gives each known host its environment, container id, site key and monitoring', () => {
    expect(at('id.example.co.jp')).toEqual({
      environment: 'production',
      apiBase: 'https://id.example.co.jp',
      analyticsContainerId: 'GTM-PROD',
      recaptchaSiteKey: 'key-prod',
      monitoring: true,
    });
    expect(at('ID-STG.example.co.jp')).toMatchObject({ environment: 'staging', analyticsContainerId: 'GTM-STG', recaptchaSiteKey: 'key-any', monitoring: true });
    expect(at('id-dev.example.co.jp')).toMatchObject({ environment: 'dev', analyticsContainerId: undefined, monitoring: true });
  });

  it('keeps analytics and monitoring off locally, with the API on localhost:8080 from the Vite dev server', () => {
    expect(envSettings({ hostname: 'localhost', origin: 'http://localhost:5173', port: '5173' }, config)).toEqual({
      environment: 'local',
      apiBase: 'http://localhost:8080',
      analyticsContainerId: undefined,
      recaptchaSiteKey: 'key-any',
      monitoring: false,
    });
  });

  it('runs monitoring only on the three known hosts', () => {
    expect(at('stg.other.example.com')).toMatchObject({ environment: 'staging', analyticsContainerId: 'GTM-STG', monitoring: false });
    expect(at('www.example.com')).toMatchObject({ environment: 'production', monitoring: false });
    const localAsKnown = envConfigFrom({ MODE: 'production', VITE_HOST_DEV: 'localhost' });
    expect(envSettings({ hostname: 'localhost', origin: 'http://localhost:8080', port: '8080' }, localAsKnown).monitoring).toBe(false);
  });

  it('never runs monitoring in tests', () => {
    const test = envConfigFrom({ MODE: 'test', VITE_HOST_PRODUCTION: 'id.example.co.jp' });
    expect(envSettings({ hostname: 'id.example.co.jp', origin: 'https://id.example.co.jp', port: '' }, test).monitoring).toBe(false);
  });

  it('has no container id and the development reCAPTCHA adapter when nothing is configured', () => {
    const empty = envConfigFrom({ MODE: 'production', VITE_ANALYTICS_CONTAINER_ID_PRODUCTION: '' });
    expect(envSettings({ hostname: 'id.example.co.jp', origin: 'https://id.example.co.jp', port: '' }, empty)).toMatchObject({
      analyticsContainerId: undefined,
      recaptchaSiteKey: undefined,
      monitoring: false,
    });
  });
});
