import { describe, expect, it } from 'vitest';
import { credentialColumns, usedColumns, type RegistrationInfo } from './webauthn-credential.ts';

/** A registration's info as @simplewebauthn/server answers it, with only what the columns read. */
const info = (over: { transports?: RegistrationInfo['credential']['transports']; backedUp?: boolean; deviceType?: RegistrationInfo['credentialDeviceType'] } = {}) =>
  ({
    credential: { id: 'Y3JlZC0x', publicKey: new Uint8Array([1, 2, 250, 251]), counter: 7, transports: over.transports },
    credentialDeviceType: over.deviceType ?? 'multiDevice',
    credentialBackedUp: over.backedUp ?? true,
  }) as unknown as RegistrationInfo;

describe('a WebAuthn credential as the database keeps it', () => {
  it('stores a new credential: its id, its key as base64url, counter, transports as JSON, device type and backup state', () => {
    expect(credentialColumns(info({ transports: ['internal', 'hybrid'] }))).toEqual({
      credential_id: 'Y3JlZC0x',
      public_key: 'AQL6-w',
      counter: 7,
      transports: '["internal","hybrid"]',
      device_type: 'multiDevice',
      backed_up: 1,
    });
  });

  it('stores no transports as an empty list, and a single-device credential not backed up as 0', () => {
    const columns = credentialColumns(info({ backedUp: false, deviceType: 'singleDevice' }));
    expect(columns).toMatchObject({ transports: '[]', device_type: 'singleDevice', backed_up: 0 });
  });

  it('records a use: the new counter, the backup state as 1 or 0, the time', () => {
    expect(usedColumns({ id: 'k', checkedCounter: 7, counter: 8, backedUp: true, now: 1000 })).toEqual({ counter: 8, backed_up: 1, last_used_at: 1000 });
    expect(usedColumns({ id: 'k', checkedCounter: 7, counter: 8, backedUp: false, now: 1000 })).toEqual({ counter: 8, backed_up: 0, last_used_at: 1000 });
  });
});
