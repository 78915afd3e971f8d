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
            <ExternalLink href={LINKS.idTerms}>ID利用規約</ExternalLink>
          </li>
          <li>
            <ExternalLink href={LINKS.cookiePolicy}>Cookieポリシー</ExternalLink>
          </li>
        </ul>
        <small>© 2023-2025 Credit Card Company, Inc.</small>
      </div>
    </footer>
  );
}
