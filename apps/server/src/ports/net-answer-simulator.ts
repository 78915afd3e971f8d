import { z } from 'zod';
import { LIMITS } from '@sso/contracts/constants';
import type { Clock } from '../lib/clock.ts';
import { loadConfigFile } from '../lib/config-file.ts';
import { constantTimeEqual, randomToken, sha256 } from '../lib/secrets.ts';
import type { NetAnswer, NetAnswerAccount } from './net-answer.ts';

const fileSchema = z.object({
  accounts: z.array(
    z.object({
      na_id: z.string().min(1).max(64),
      password: z.string().min(1).max(128),
      esids: z.array(z.string().min(1).max(64)).min(1),
    }),
  ),
});

/** What a redeemed Net Answer direct-login key names: the development page shows it. */
export interface NetAnswerLanding {
  naId: string;
  esid: string;
  param1: string;
  param2: string;
}

export interface NetAnswerSimulator extends NetAnswer {
  /** Uses a direct-login key up (single use, LIMITS.directLoginTokenTtlMs): what Net Answer would do on landing. */
  redeem(key: string): NetAnswerLanding | undefined;
}

/**
 * The Net Answer simulator over a parsed account list. Its direct-login URLs point at the
 * development page /dev/netanswer/login of this server (served outside production only), which
 * redeems the key once and shows what Net Answer received.
 */
export function netAnswerFromList(json: unknown, publicOrigin: string, clock: Clock): NetAnswerSimulator {
  const accounts = fileSchema.parse(json).accounts;
  const keys = new Map<string, NetAnswerLanding & { expiresAt: number }>();
  return {
    async verifyAccount(naId, password): Promise<NetAnswerAccount | undefined> {
      const account = accounts.find((a) => a.na_id === naId);
      // Compared even for an unknown id, so that the timing does not tell whether the id exists.
      const ok = constantTimeEqual(password, account?.password ?? '\u0000no account');
      return account && ok ? { naId: account.na_id, esids: [...account.esids] } : undefined;
    },
    async directLoginUrl(p) {
      const now = clock.now();
      for (const [k, v] of keys) if (v.expiresAt <= now) keys.delete(k);
      const key = randomToken();
      keys.set(sha256(key), { ...p, expiresAt: now + LIMITS.directLoginTokenTtlMs });
      const url = new URL('/dev/netanswer/login', publicOrigin);
      url.searchParams.set('key', key);
      return url.toString();
    },
    redeem(key) {
      const hash = sha256(key);
      const landing = keys.get(hash);
      keys.delete(hash);
      if (!landing || landing.expiresAt <= clock.now()) return undefined;
      const { expiresAt: _expiresAt, ...rest } = landing;
      return rest;
    },
  };
}

/** Reads NET_ANSWER_FILE once at boot; a missing or invalid file stops the start with its name. */
export const loadNetAnswerSimulator = (file: string, publicOrigin: string, clock: Clock): NetAnswerSimulator =>
  loadConfigFile({ variable: 'NET_ANSWER_FILE', file, entry: 'account' }, (raw) => netAnswerFromList(raw, publicOrigin, clock));
