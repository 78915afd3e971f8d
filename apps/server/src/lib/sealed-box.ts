import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Text encrypted at rest with AES-256-GCM (NIST SP 800-38D), for a secret the server must read back,
 * such as the private half of an ID token signing key (decision 0025): a fresh 96-bit IV per sealing,
 * the 128-bit tag, and associated data that names what the text belongs to (a key's kid), so that a
 * sealed value copied onto another row does not open there. The AES key is derived from a configured
 * secret by HKDF-SHA256 (RFC 5869) with the purpose as its info, so that one secret never keys two uses.
 *
 * Sealed form: `v1.<iv>.<ciphertext>.<tag>`, each base64url.
 */
const VERSION = 'v1';

const keyOf = (secret: string, purpose: string): Buffer => Buffer.from(hkdfSync('sha256', secret, '', purpose, 32));

export function seal(p: { secret: string; purpose: string; plaintext: string; aad: string }): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(p.secret, p.purpose), iv);
  cipher.setAAD(Buffer.from(p.aad, 'utf8'));
  const body = Buffer.concat([cipher.update(p.plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** The text a sealed value holds; throws when the secret, the purpose or the associated data is not the one it was sealed with. */
export function open(p: { secret: string; purpose: string; sealed: string; aad: string }): string {
  const [version, iv, body, tag] = p.sealed.split('.');
  if (version !== VERSION || !iv || body === undefined || !tag) throw new Error('not a sealed value of this version');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(p.secret, p.purpose), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(p.aad, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
