import { CLIENT_MESSAGES, FRAME_TEXTS, SERVER_MESSAGES, SIGNUP_MESSAGES, TEXTS } from '@sso/contracts/messages';
import { LINKS } from '../../lib/links.ts';
import { ExternalLink } from '../../ui/external-link.tsx';
import { ErrorPage } from './error-page.tsx';
import styles from './error-page.module.css';

/** A link under an error page's message, to where the member gets further (SPEC.md section 9 links). */
const MoreLink = ({ href, children }: { href: string; children: string }) => (
  <p className={styles.more}>
    <ExternalLink href={href}>{children}</ExternalLink>
  </p>
);

/** The error routes of SPEC.md section 2 with their default messages (SPEC.md section 8). */
export const NotFoundPage = () => (
  <ErrorPage title="ページが見つかりません" message={TEXTS.notFound} detail={CLIENT_MESSAGES['C99-000404']}>
    <MoreLink href={LINKS.idLanding}>メンバーIDについて</MoreLink>
  </ErrorPage>
);
export const ServerErrorPage = () => (
  <ErrorPage title="エラーが発生しました" message={CLIENT_MESSAGES['C99-000999']}>
    <MoreLink href={LINKS.support}>お問い合わせ</MoreLink>
  </ErrorPage>
);
export const OutOfServicePage = () => (
  <ErrorPage title="サービス停止中" message={SERVER_MESSAGES.outOfService}>
    <MoreLink href={LINKS.support}>お問い合わせ</MoreLink>
  </ErrorPage>
);
export const BusyPage = () => <ErrorPage title={TEXTS.slow} message={CLIENT_MESSAGES['C99-000600']} />;

/** Card sign-up guides (SPEC.md sections 4 and 8, results 903 and 904): the server's message wins over these. */
export const SignupInfoPage = () => <ErrorPage title={TEXTS.registerFailed} message={SIGNUP_MESSAGES.infoGuide} />;
export const SignupChatbotPage = () => (
  <ErrorPage title={TEXTS.identityUnconfirmed} message={SIGNUP_MESSAGES.chatbotGuide}>
    <MoreLink href={LINKS.chatbot}>チャットボットで問い合わせる</MoreLink>
  </ErrorPage>
);

/**
 * A partner's login or card sign-up link that the authorize endpoint would refuse: an unknown
 * client or an unregistered redirect URI (RFC 6749 section 4.1.2.1: the member is told, never sent
 * to the redirect URI). Shown instead of the form, so that no password is typed for it.
 */
export const PartnerMistakePage = () => (
  <ErrorPage title={FRAME_TEXTS.invalidLinkTitle} message={FRAME_TEXTS.invalidLink} detail={FRAME_TEXTS.invalidLinkAdvice} />
);

/** A screen that threw while rendering (the router logs it): the unexpected-error page, not the router's default. */
export const RouteErrorPage = () => <ServerErrorPage />;
