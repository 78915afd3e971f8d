import { describe, expect, it } from 'vitest';
import { LINKS, linkVariable, offersChatbotHelp, resolveLinks } from './links.ts';

describe('external links (SPEC.md section 9)', () => {
  it('defines each of the company pages the spec names once, as an https URL', () => {
    const names = ['chatbot', 'support', 'cookiePolicy', 'help', 'postalCodeSearch', 'idLanding', 'idTerms', 'mailNotReceived'];
    expect(Object.keys(LINKS).sort()).toEqual([...names].sort());
    for (const url of Object.values(LINKS)) expect(url).toMatch(/^https:\/\//);
  });

  it('lets a build override one link with VITE_LINK_<NAME>', () => {
    expect(linkVariable('postalCodeSearch')).toBe('VITE_LINK_POSTAL_CODE_SEARCH');
    const links = resolveLinks({ VITE_LINK_CHATBOT: 'https://chat.example.jp/bot' });
    expect(links.chatbot).toBe('https://chat.example.jp/bot');
    expect(links.help).toBe(LINKS.help);
  });

  it('ignores an override that is not an absolute https URL', () => {
    expect(resolveLinks({ VITE_LINK_HELP: 'javascript:alert(1)' }).help).toBe(LINKS.help);
    expect(resolveLinks({ VITE_LINK_HELP: '' }).help).toBe(LINKS.help);
  });

  it('offers the chat-bot only to members from the messaging app (SIAP002)', () => {
    expect(offersChatbotHelp('SIAP002')).toBe(true);
    for (const other of ['SIAP009', 'SIAP005', 'SIAP004', undefined]) expect(offersChatbotHelp(other)).toBe(false);
  });
});
