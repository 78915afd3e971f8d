/** What a route of app/router.tsx carries in its `handle`: its own document title. */
export interface RouteHandle {
  title: string;
}

/** The product's name, after every page's own title and alone where a page has none (index.html). */
export const PRODUCT_NAME = 'メンバーID';

/** "ログイン | メンバーID": the page's own words first, so that tabs, history and screen readers tell pages apart. */
export const documentTitle = (title: string | undefined) => (title ? `${title} | ${PRODUCT_NAME}` : PRODUCT_NAME);

const titleOf = (handle: unknown) =>
  handle && typeof handle === 'object' && typeof (handle as Partial<RouteHandle>).title === 'string' ? (handle as RouteHandle).title : undefined;

/** The title of the deepest matched route that names one (the pathless layout and guard routes name none). */
export function routeTitle(matches: readonly { handle?: unknown }[]): string | undefined {
  for (let i = matches.length - 1; i >= 0; i--) {
    const title = titleOf(matches[i]?.handle);
    if (title) return title;
  }
  return undefined;
}
