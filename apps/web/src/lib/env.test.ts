import { describe, expect, it } from 'vitest';
import { apiBase } from './env.ts';

describe('API base from the page origin', () => {
  it('is the page origin when the server serves the SPA', () => {
    expect(apiBase({ origin: 'https://id.example.com', port: '' })).toBe('https://id.example.com');
    expect(apiBase({ origin: 'http://localhost:8080', port: '8080' })).toBe('http://localhost:8080');
  });

  it('is the local API on port 8080 when the page runs on the Vite dev server', () => {
    expect(apiBase({ origin: 'http://localhost:5173', port: '5173' })).toBe('http://localhost:8080');
  });
});
