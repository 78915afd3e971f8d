import { describe, expect, it } from 'vitest';
import { composeMail } from './compose-mail.ts';

describe('composeMail', () => {
  it('says the same in the text and the HTML part, escaping what it interpolates into the HTML', () => {
    const mail = composeMail('a@example.com', '件名 <b>', ['一行目 <script>\n二行目 & "引用"', { label: 'リンク', url: 'https://x.example/p?a=1&b="2"' }]);
    expect(mail).toMatchObject({ kind: 'mail', to: 'a@example.com', subject: '件名 <b>' });
    expect(mail.text).toMatch(/^一行目 <script>\n二行目 & "引用"\n\nリンク\nhttps:\/\/x\.example\/p\?a=1&b="2"\n\nメンバーID\n/);
    expect(mail.html).toContain('<title>件名 &lt;b&gt;</title>');
    expect(mail.html).toContain('<p>一行目 &lt;script&gt;<br>二行目 &amp; &quot;引用&quot;</p>');
    expect(mail.html).toContain('<p>リンク<br><a href="https://x.example/p?a=1&amp;b=&quot;2&quot;">https://x.example/p?a=1&amp;b=&quot;2&quot;</a></p>');
    expect(mail.html).not.toContain('<script>');
  });
});
