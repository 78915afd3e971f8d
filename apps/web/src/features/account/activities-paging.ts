/** The activity log's paging (SPEC.md section 2): the page lives in the URL (?page=2), so Back and reload keep it. */

/** The page asked for by the query string: a whole number from 1, anything else is page 1. */
export function pageFromSearch(search: URLSearchParams): number {
  const raw = search.get('page');
  if (raw === null || !/^[1-9]\d{0,3}$/.test(raw)) return 1;
  return Number(raw);
}

/** The targets of 前へ and 次へ: none before page 1, none after the page the server says is the last. */
export function pageLinks(page: number, hasNext: boolean): { previous?: number; next?: number } {
  return {
    ...(page > 1 && { previous: page - 1 }),
    ...(hasNext && { next: page + 1 }),
  };
}
