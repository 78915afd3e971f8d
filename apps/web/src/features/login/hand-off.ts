import { apiBase } from '../../lib/env.ts';

/**
 * The authorize hand-off (SPEC.md section 4): a hidden form posts the login to the server's
 * authorize endpoint, which answers 303 to the client's redirect URI with the code.
 */
export function submitAuthorizeForm(authorize: URLSearchParams, fields: Record<string, string | string[]>): void {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = `${apiBase()}/api/auth/authorize?${authorize.toString()}`;
  form.hidden = true;
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      input.value = v;
      form.appendChild(input);
    }
  }
  document.body.appendChild(form);
  form.submit();
}
