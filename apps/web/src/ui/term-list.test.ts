import { afterEach, describe, expect, it, vi } from 'vitest';
import { termsOf } from './term-list.ts';

describe('the terms a screen shows (SPEC.md section 3)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows a known key with its title and body, without a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const [term] = termsOf(['ServiceOnNetAnswer']);
    expect(term).toMatchObject({ key: 'ServiceOnNetAnswer', title: 'Net Answer 利用規約' });
    expect(term?.body).toContain('Net Answer');
    expect(warn).not.toHaveBeenCalled();
  });

  it('gives an unknown key an empty title and body and logs a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(termsOf(['ServiceOnNetAnswer', 'NoSuchTerm'])[1]).toEqual({ key: 'NoSuchTerm', title: '', body: '' });
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]?.[0]).toContain('NoSuchTerm');
  });
});
