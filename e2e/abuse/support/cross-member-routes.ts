import type { ApiRoute } from '@sso/contracts/api-route';

/**
 * Whether the route refuses a caller without a token as SPEC.md section 7's (Bearer) endpoints do:
 * HTTP 401 with result 300 (SPEC.md section 8) before the body is read (oauth/member-post.ts,
 * profile/routes.ts). Asked over HTTP of every route of the API catalogue, so that a Bearer route
 * the catalogue does not declare so (or the other way round) shows.
 */
export async function wantsBearer(origin: string, r: Pick<ApiRoute, 'method' | 'path'>): Promise<boolean> {
  const url = `${origin}${r.path}`;
  const res = await fetch(url, r.method === 'GET' ? { redirect: 'manual' } : { method: r.method, redirect: 'manual', headers: { 'content-type': 'application/json' }, body: '{}' });
  const text = await res.text();
  if (res.status !== 401) return false;
  try {
    return (JSON.parse(text) as { result_code?: unknown }).result_code === 300;
  } catch {
    return false;
  }
}
