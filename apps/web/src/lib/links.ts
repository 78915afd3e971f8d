import { FOOTER_LINKS } from '@sso/contracts/page-frame';
import { returnBehaviour } from './session-origin.ts';

/**
 * The company's pages the SPA links to, each defined once (SPEC.md section 9). A build may
 * override one with VITE_LINK_<NAME>, e.g. VITE_LINK_CHATBOT for `chatbot`.
 */
const DEFAULT_LINKS = {
  /** ID landing page. */
  idLanding: 'https://www.example.com/id/',
  /** ID terms (footer, SPEC.md section 2). */
  idTerms: FOOTER_LINKS.idTerms.href,
  /** Cookie policy (footer). */
  cookiePolicy: FOOTER_LINKS.cookiePolicy.href,
  /** FAQ pages: the login's help link. */
  help: 'https://www.example.com/id/faq',
  /** Help for a mail that did not arrive (e-mail one-time password, open sign-up sent). */
  mailNotReceived: 'https://www.example.com/id/faq/mail-not-received',
  /** Support contact. */
  support: 'https://www.example.com/support/contact',
  /** The company's chat-bot: the 904 guide page and the login of members from the messaging app. */
  chatbot: 'https://www.example.com/chatbot',
  /** Postal-code search, next to the postal-code field. */
  postalCodeSearch: 'https://www.post.japanpost.jp/zipcode/',
} as const;

export type LinkName = keyof typeof DEFAULT_LINKS;

/** VITE_LINK_ plus the name in upper snake case: postalCodeSearch -> VITE_LINK_POSTAL_CODE_SEARCH. */
export const linkVariable = (name: LinkName) => `VITE_LINK_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;

/** The default links with the overrides that are absolute https URLs; anything else is ignored. */
export function resolveLinks(env: Record<string, unknown>): Record<LinkName, string> {
  const entries = (Object.keys(DEFAULT_LINKS) as LinkName[]).map((name) => {
    const value = env[linkVariable(name)];
    return [name, typeof value === 'string' && /^https:\/\/[^\s]+$/.test(value) ? value : DEFAULT_LINKS[name]];
  });
  return Object.fromEntries(entries) as Record<LinkName, string>;
}

export const LINKS: Readonly<Record<LinkName, string>> = Object.freeze(resolveLinks(import.meta.env as Record<string, unknown>));

/** Members arriving from the messaging app (session comesFrom SIAP002) are offered the chat-bot (SPEC.md section 2, login). */
export const offersChatbotHelp = (comesFrom: string | undefined) => returnBehaviour(comesFrom).offersChatbot;
