import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { median } from './budgets.ts';
import { driverCpu } from './thread-cpu.ts';

/**
 * The CPU of one ES256 signature (RFC 7518 section 3.4) over an ID token's worth of claims, in this
 * process, for the openid refresh's budget (budgets.ts): what the server's signer does for each ID
 * token (modules/oidc/jwt-signer.ts: jose in a worker thread, which calls node:crypto's sign), the
 * header and claims encoded, a P-256 key's signature in the JWS form (r and s, IEEE P1363). The
 * median of `batches` batches of `perBatch`, in µs of the driver's CPU (process.cpuUsage).
 */
export function es256SignatureUs(o: { batches?: number; perBatch?: number } = {}): { us: number; batchesUs: number[] } {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const header = b64({ alg: 'ES256', kid: 'bench', typ: 'JWT' });
  const now = Math.floor(Date.now() / 1000);
  const batchesUs: number[] = [];
  for (let b = 0; b < (o.batches ?? 5); b++) {
    const n = o.perBatch ?? 2000;
    const before = driverCpu();
    for (let i = 0; i < n; i++) {
      const claims = { iss: 'https://sso.example', sub: randomUUID(), aud: 'SIAP009', iat: now, exp: now + 3600, auth_time: now, sid: randomUUID() };
      const input = `${header}.${b64(claims)}`;
      sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
    }
    batchesUs.push(((driverCpu().mainMs - before.mainMs) * 1000) / n);
  }
  return { us: median(batchesUs), batchesUs };
}
