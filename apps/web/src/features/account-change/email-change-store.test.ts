import { beforeEach, describe, expect, it } from 'vitest';
import { stubBrowserGlobals } from '../../lib/test-browser-globals.ts';

const store = stubBrowserGlobals();
const { clearHeldEmailChange, getHeldEmailChange, holdEmailChange } = await import('./email-change-store.ts');

describe('the held e-mail change', () => {
  beforeEach(() => store.clear());

  it('keeps the register_token and the new address across a reload, until cleared', () => {
    holdEmailChange('reg-1', 'new@example.com');
    expect(getHeldEmailChange()).toEqual({ registerToken: 'reg-1', email: 'new@example.com' });
    clearHeldEmailChange();
    expect(getHeldEmailChange()).toBeUndefined();
  });

  it('counts a broken or partial record as none', () => {
    for (const raw of ['{', 'null', '{"email":"a@example.com"}', '{"registerToken":"","email":"a@example.com"}', '{"registerToken":"r","email":1}']) {
      store.set('sso.emailChange', raw);
      expect(getHeldEmailChange()).toBeUndefined();
    }
  });

  it('gives back only its own fields', () => {
    store.set('sso.emailChange', JSON.stringify({ registerToken: 'r', email: 'a@example.com', other: 'x' }));
    expect(getHeldEmailChange()).toEqual({ registerToken: 'r', email: 'a@example.com' });
  });
});
