import { COPYRIGHT, FOOTER_LINKS } from '@sso/contracts/page-frame';
import { LINKS } from '../lib/links.ts';
import { ExternalLink } from '../ui/external-link.tsx';
import styles from './layout.module.css';

/** Footer: ID terms, cookie policy, copyright 2023-2025 (SPEC.md section 2). */
export function Footer() {
  return (
    <footer className={styles.footer}>
      <div className={styles.footerInner}>
        <ul className={styles.footerLinks}>
          <li>
            <ExternalLink href={LINKS.idTerms}>{FOOTER_LINKS.idTerms.text}</ExternalLink>
          </li>
          <li>
            <ExternalLink href={LINKS.cookiePolicy}>{FOOTER_LINKS.cookiePolicy.text}</ExternalLink>
          </li>
        </ul>
        <small>{COPYRIGHT}</small>
      </div>
    </footer>
  );
}
