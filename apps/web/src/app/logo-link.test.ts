import { describe, expect, it } from 'vitest';
import { logoLinks } from './logo-link.ts';

describe('the header logo (SPEC.md section 2)', () => {
  it('has no link on the out-of-service and app-did-not-open error pages', () => {
    for (const path of ['/503', '/problem/busy', '/problem/busy/']) expect(logoLinks(path), path).toBe(false);
  });

  it('links on every other page, the other error pages included', () => {
    for (const path of ['/', '/authorize', '/top', '/404', '/500', '/problem/signup/card/chatbot', '/problem/busy/x'])
      expect(logoLinks(path), path).toBe(true);
  });
});
