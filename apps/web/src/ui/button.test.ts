import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Button } from './button.tsx';

const render = (pending: boolean) => renderToStaticMarkup(createElement(Button, { type: 'submit', pending }, 'ログイン'));

describe('a pending button shows that it is working (SPEC.md section 4: it blocks repeated clicks)', () => {
  it('while pending: disabled, aria-busy, a spinner and 処理中… beside its label', () => {
    const html = render(true);
    expect(html).toMatch(/<button [^>]*disabled=""/);
    expect(html).toContain('aria-busy="true"');
    expect(html).toMatch(/<span class="[^"]*spinner[^"]*" aria-hidden="true"><\/span>ログイン<span[^>]*>（処理中…）<\/span>/);
  });

  it('otherwise: only its label, enabled, not busy', () => {
    const html = render(false);
    expect(html).not.toContain('disabled');
    expect(html).not.toContain('aria-busy');
    expect(html).not.toContain('処理中');
    expect(html).toMatch(/>ログイン<\/button>$/);
  });
});
