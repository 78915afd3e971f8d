import { API, API_KEYS, type ApiKey } from '@sso/contracts/api-catalogue';
import type { ApiRoute } from '@sso/contracts/api-route';
import { describe, expect, it } from 'vitest';
import { CROSS_MEMBER, NO_INPUT } from '../../../../e2e/abuse/support/cross-member-table.ts';
import { API_FUZZ, FUZZ_TABLE } from '../../../../e2e/abuse/support/fuzz-endpoints.ts';

/**
 * The abuse suite's tables are keyed by the API catalogue (packages/contracts/src/api-catalogue.ts),
 * so that an endpoint is declared once: a catalogue entry without a fuzz entry, or a Bearer entry
 * without a cross-member case, does not compile (their types are mapped over the catalogue's keys).
 * This checks the same at run time, and that what the tables derive from an entry is the entry's.
 */

const entry = (key: ApiKey): ApiRoute => API[key];
const bearerKeys = API_KEYS.filter((key) => entry(key).bearer);

describe("the abuse suite's tables are the API catalogue's", () => {
  it('the fuzz table has every catalogue route once, with the method, path, body encoding and caller of its entry', () => {
    expect(Object.keys(API_FUZZ).sort()).toEqual([...API_KEYS].sort());
    const wrong: string[] = [];
    for (const key of API_KEYS) {
      const { method, path, bearer, client, json, form } = entry(key);
      const fuzzed = FUZZ_TABLE.filter((e) => e.method === method && e.route === path);
      if (fuzzed.length !== 1) wrong.push(`${key}: ${fuzzed.length} fuzz entries`);
      const e = fuzzed[0];
      if (!e) continue;
      const caller = bearer ? ['card', 'open', 'victim', 'leaver'].includes(e.caller) : e.caller === (client === 'confidential' ? 'client' : 'none');
      if (!caller) wrong.push(`${key}: called as ${e.caller}`);
      if ((form && e.body !== 'form') || (json && e.body !== 'json')) wrong.push(`${key}: a ${form ? 'form' : 'JSON'} body fuzzed as ${e.body}`);
    }
    expect(wrong).toEqual([]);
  });

  it('the cross-member table has every Bearer route of the catalogue, and only those', () => {
    expect(bearerKeys.length).toBeGreaterThan(40);
    expect([...Object.keys(CROSS_MEMBER).map((path) => `POST ${path}`), ...NO_INPUT].sort()).toEqual([...bearerKeys].sort());
  });
});
