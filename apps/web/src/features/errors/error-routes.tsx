import { CLIENT_MESSAGES, SERVER_MESSAGES, TEXTS } from '@sso/contracts/messages';
import { ErrorPage } from './error-page.tsx';

/** The error routes of SPEC.md section 2 with their default messages (SPEC.md section 8). */
export const NotFoundPage = () => <ErrorPage title="ページが見つかりません" message={TEXTS.notFound} detail={CLIENT_MESSAGES['C99-000404']} />;
export const ServerErrorPage = () => <ErrorPage title="エラーが発生しました" message={CLIENT_MESSAGES['C99-000999']} />;
export const OutOfServicePage = () => <ErrorPage title="サービス停止中" message={SERVER_MESSAGES.outOfService} />;
export const BusyPage = () => <ErrorPage title={TEXTS.slow} message={CLIENT_MESSAGES['C99-000600']} />;

/** A screen that threw while rendering (the router logs it): the unexpected-error page, not the router's default. */
export const RouteErrorPage = () => <ServerErrorPage />;
