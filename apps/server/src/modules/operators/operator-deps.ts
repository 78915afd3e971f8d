import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { OperatorRole, OperatorView } from '@sso/contracts/operators';
import type { OperatorRow } from './operator-repo.ts';

/** What the operator services need: the database, the time, and the issuer (PUBLIC_ORIGIN: the relying party and the links' origin). */
export interface OperatorDeps {
  db: Kysely<Database>;
  clock: Clock;
  issuer: string;
}

/** An operator as the console shows them (packages/contracts/src/operators.ts). */
export const operatorView = (row: Pick<OperatorRow, 'id' | 'email' | 'display_name' | 'role' | 'status' | 'created_at'>): OperatorView => ({
  id: row.id,
  email: row.email,
  display_name: row.display_name,
  role: row.role as OperatorRole,
  status: row.status === 'active' ? 'active' : 'disabled',
  created_at: Number(row.created_at),
});

/**
 * The WebAuthn user handle of an operator: the bytes of `operator:<id>`, which carry no personal data
 * and are never a member's (a member's handle is their id's bytes: passkeys/relying-party.ts).
 */
export const operatorHandleBytes = (operatorId: string): Uint8Array<ArrayBuffer> => new Uint8Array(Buffer.from(`operator:${operatorId}`, 'utf8'));
export const operatorHandleOf = (operatorId: string): string => Buffer.from(`operator:${operatorId}`, 'utf8').toString('base64url');
