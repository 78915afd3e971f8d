import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software WebAuthn authenticator for the API tests and the benchmark (decision 0024): it makes a
 * discoverable ES256 credential for a relying party and answers registration and authentication
 * ceremonies as a platform authenticator with user verification would, in the JSON forms a browser
 * sends (W3C WebAuthn Level 3, sections 5.1 and 6.1). The browser journeys use Chromium's own
 * virtual authenticator instead. Knobs let a test break one thing at a time: the origin, the relying
 * party id, the user verification flag, the counter, the backup flags.
 */

const b64u = (b: Uint8Array) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

/** WebAuthn authenticator data flags (section 6.1). */
const UP = 0x01;
const UV = 0x04;
const BE = 0x08;
const BS = 0x10;
const AT = 0x40;

export interface CeremonyKnobs {
  /** The origin the browser writes into clientDataJSON (default: the authenticator's). */
  origin?: string;
  /** The relying party id whose hash begins the authenticator data (default: the authenticator's). */
  rpId?: string;
  /** Clear the user-verified flag. */
  noUserVerification?: boolean;
  /** The signature counter to report instead of the next one. */
  counter?: number;
  /** The challenge to sign instead of the options' one. */
  challenge?: string;
  /** The WebAuthn type in clientDataJSON (default webauthn.get / webauthn.create). */
  type?: string;
  /** At registration: the credential id to use (base64url) instead of a new random one. */
  credentialId?: string;
}

export interface SoftCredential {
  id: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  userHandle: string;
  counter: number;
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  constructor(
    readonly origin: string,
    readonly rpId = new URL(origin).hostname,
    /** Backup eligible and backed up (a synced passkey), or a device-bound one; whether it counts signatures. */
    readonly kind: { synced: boolean; counting: boolean } = { synced: true, counting: false },
  ) {}

  private flags(base: number, knobs: CeremonyKnobs): number {
    let f = base | UP | (knobs.noUserVerification ? 0 : UV);
    if (this.kind.synced) f |= BE | BS;
    return f;
  }

  private clientData(type: string, challenge: string, knobs: CeremonyKnobs): Buffer {
    return Buffer.from(JSON.stringify({ type: knobs.type ?? type, challenge: knobs.challenge ?? challenge, origin: knobs.origin ?? this.origin, crossOrigin: false }));
  }

  /**
   * A new credential for the user handle (base64url), kept by this authenticator: its id and its COSE
   * public key (ES256), as a registration stores them. The benchmark seeds passkeys so, without a ceremony.
   */
  mint(userHandle: string, credentialId?: string, counter = 0): { id: string; publicKeyCose: Uint8Array } {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
    ]);
    const id = credentialId ?? b64u(randomBytes(32));
    this.credentials.push({ id, privateKey, publicKey, userHandle, counter });
    return { id, publicKeyCose: isoCBOR.encode(cose) };
  }

  /** Answers `navigator.credentials.create()` for the server's creation options (attestation "none"). */
  register(options: Record<string, unknown>, knobs: CeremonyKnobs = {}): Record<string, unknown> {
    const counter = knobs.counter ?? 0;
    const { id, publicKeyCose } = this.mint((options.user as { id: string }).id, knobs.credentialId, counter);
    const credentialId = Buffer.from(id, 'base64url');
    const authData = Buffer.concat([
      sha256(knobs.rpId ?? this.rpId),
      Buffer.from([this.flags(AT, knobs)]),
      u32(counter),
      Buffer.alloc(16),
      Buffer.from([0, credentialId.length]),
      credentialId,
      Buffer.from(publicKeyCose),
    ]);
    const attestation: Parameters<typeof isoCBOR.encode>[0] = new Map<string, Parameters<typeof isoCBOR.encode>[0]>([
      ['fmt', 'none'],
      ['attStmt', new Map<string, string>()],
      ['authData', new Uint8Array(authData)],
    ]);
    const attestationObject = isoCBOR.encode(attestation);
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: b64u(this.clientData('webauthn.create', String(options.challenge), knobs)),
        attestationObject: b64u(attestationObject),
        transports: ['internal', 'hybrid'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /**
   * Answers `navigator.credentials.get()` for the server's request options: with the credential the
   * options allow, or (discoverable) the newest one, or the one named.
   */
  authenticate(options: Record<string, unknown>, knobs: CeremonyKnobs & { credential?: SoftCredential } = {}): Record<string, unknown> {
    const allowed = (options.allowCredentials as { id: string }[] | undefined)?.map((c) => c.id) ?? [];
    const credential =
      knobs.credential ?? [...this.credentials].reverse().find((c) => allowed.length === 0 || allowed.includes(c.id));
    if (!credential) throw new Error('no credential for these options');
    if (this.kind.counting) credential.counter += 1;
    const counter = knobs.counter ?? (this.kind.counting ? credential.counter : 0);
    const authenticatorData = Buffer.concat([sha256(knobs.rpId ?? this.rpId), Buffer.from([this.flags(0, knobs)]), u32(counter)]);
    const clientDataJSON = this.clientData('webauthn.get', String(options.challenge), knobs);
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64u(clientDataJSON),
        authenticatorData: b64u(authenticatorData),
        signature: b64u(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}
