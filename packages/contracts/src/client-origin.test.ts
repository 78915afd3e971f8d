import { describe, expect, it } from 'vitest';
import { clientOrigin, isPortalClient, isPortalOrigin } from './client-origin.ts';

describe('session origin (SPEC.md section 4, classed by the client ids of section 6)', () => {
  it.each([
    ['SIAP009', 'web'],
    ['SIAP005', 'portal'],
    ['SIAP006', 'portal'],
    ['SIAP007', 'secondPortal'],
    ['SIAP008', 'secondPortal'],
    ['SIAP002', 'lineAnswer'],
    ['SIAP004', 'netAnswer'],
  ])('classes %s as %s', (id, origin) => {
    expect(clientOrigin(id)).toBe(origin);
  });

  it('classes anything else as unknown: another id, a near miss, nothing', () => {
    for (const id of ['SIAP001', 'siap005', ' SIAP005', 'SIAP0055', '', null, undefined]) expect(clientOrigin(id)).toBe('unknown');
  });

  it('counts both portals, and only them, as portal apps', () => {
    expect(['SIAP005', 'SIAP006', 'SIAP007', 'SIAP008'].every(isPortalClient)).toBe(true);
    expect(['SIAP009', 'SIAP002', 'SIAP004', 'SIAP001', undefined].some(isPortalClient)).toBe(false);
    expect(isPortalOrigin('secondPortal')).toBe(true);
    expect(isPortalOrigin('netAnswer')).toBe(false);
  });
});
