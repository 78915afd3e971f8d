import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Steps } from './steps.tsx';

describe('the step of a multi-step flow', () => {
  const html = renderToStaticMarkup(createElement(Steps, { labels: ['カード情報', '本人確認', 'メール確認', '利用規約'], current: 2 }));

  it('says which step of how many, in words and as the list\'s accessible name', () => {
    expect(html).toContain('>ステップ 2/4</p>');
    expect(html).toMatch(/<ol [^>]*aria-label="手続きのステップ 2\/4">/);
  });

  it('marks the current step, and only it, aria-current="step"', () => {
    expect(html.match(/aria-current="step"/g)).toHaveLength(1);
    expect(html).toMatch(/<li [^>]*aria-current="step">本人確認<\/li>/);
    expect(html.match(/<li /g)).toHaveLength(4);
  });
});
