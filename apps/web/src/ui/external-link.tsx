import type { AnchorHTMLAttributes } from 'react';
import { onOutboundClick } from '../lib/analytics.ts';

/**
 * A link to one of the company's pages (lib/links.ts) that opens in the same tab: its analytics hit
 * is sent first, waiting at most 250 ms before the page changes (SPEC.md section 9).
 */
export function ExternalLink(props: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  return <a {...props} onClick={onOutboundClick} />;
}
