import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LINKS } from '../lib/links.ts';
import { ProfileFields, type ProfileFieldName } from './profile-fields.tsx';

const register = (name: ProfileFieldName) => ({ name, onChange: async () => undefined, onBlur: async () => undefined, ref: () => undefined });
const render = (props: Partial<Parameters<typeof ProfileFields>[0]> = {}) =>
  renderToStaticMarkup(createElement(ProfileFields, { register, errors: {}, ...props }));

describe('the postal-code field (SPEC.md sections 2 and 9)', () => {
  it('offers the postal-code search next to an editable postal code', () => {
    const html = render();
    expect(html).toContain('id="postal_code"');
    expect(html).toContain(`href="${LINKS.postalCodeSearch}"`);
  });

  it('offers no search where the postal code is read-only or not asked', () => {
    expect(render({ readonlyValue: (name) => (name === 'postal_code' ? '1000001' : undefined) })).not.toContain(LINKS.postalCodeSearch);
    expect(render({ only: ['last_name_kana', 'birthday', 'tel'] })).not.toContain(LINKS.postalCodeSearch);
  });
});
