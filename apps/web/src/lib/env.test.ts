import { describe, expect, it } from 'vitest';
import { apiBase, environmentOf, newsletterDefault } from './env.ts';

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
