import { describe, expect, it } from 'vitest';
import { signupTermKeys } from '@sso/contracts/signup-terms';
import { termsOf } from '../../ui/term-list.ts';

// The open sign-up shows the terms of the client it came from (SPEC.md section 3 term keys): the
// page passes its query's client_id to signupTermKeys and shows each document.
describe('the terms the open sign-up shows, by the client it came from', () => {
  it('the line answer (SIAP002): the ID\'s terms and the line answer\'s three', () => {
    expect(signupTermKeys('SIAP002')).toEqual([
      'ServiceOnMemberId',
      'PersonalInfoOnMemberId',
      'ImportantMattersOnLineAccount',
      'ServiceOnLineAccount',
      'PersonalInfoOnLineAccount',
    ]);
  });

  // Names an object inherits (constructor, toString, __proto__) are unknown clients too, not a crash.
  it.each(['SIAP009', 'SIAP005', 'SIAP007', 'NOPE', '', 'constructor', 'toString', '__proto__', 'hasOwnProperty'])('%s: the ID\'s own terms only', (clientId) => {
    expect(signupTermKeys(clientId)).toEqual(['ServiceOnMemberId', 'PersonalInfoOnMemberId']);
  });

  it('several clients: each term once, the ID\'s first', () => {
    expect(signupTermKeys('SIAP002,SIAP004,SIAP002')).toEqual([
      'ServiceOnMemberId',
      'PersonalInfoOnMemberId',
      'ImportantMattersOnLineAccount',
      'ServiceOnLineAccount',
      'PersonalInfoOnLineAccount',
      'ServiceOnNetAnswer',
    ]);
  });

  it('every key shown has a title and a body', () => {
    for (const doc of termsOf(signupTermKeys('SIAP002,SIAP004'))) {
      expect(doc.title).not.toBe('');
      expect(doc.body).not.toBe('');
    }
  });
});
