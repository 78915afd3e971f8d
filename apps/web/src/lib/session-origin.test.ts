import { describe, expect, it } from 'vitest';
import { returnBehaviour } from './session-origin.ts';

/** SPEC.md section 4, "Session origin": one class of comesFrom drives each return behaviour. */
describe('return behaviour by session origin', () => {
  it.each([
    ['the web itself', 'SIAP009', { returnsToApp: false, offersChatbot: false }],
    ['the portal', 'SIAP005', { returnsToApp: true, offersChatbot: false }],
    ['the portal (card)', 'SIAP006', { returnsToApp: true, offersChatbot: false }],
    ['the second portal', 'SIAP007', { returnsToApp: true, offersChatbot: false }],
    ['the second portal (card)', 'SIAP008', { returnsToApp: true, offersChatbot: false }],
    ['the line answer', 'SIAP002', { returnsToApp: false, offersChatbot: true }],
    ['the net answer', 'SIAP004', { returnsToApp: false, offersChatbot: false }],
    ['an unknown client', 'SIAP001', { returnsToApp: false, offersChatbot: false }],
    ['nowhere', undefined, { returnsToApp: false, offersChatbot: false }],
  ])('from %s (%s)', (_name, comesFrom, behaviour) => {
    expect(returnBehaviour(comesFrom)).toEqual(behaviour);
  });
});
