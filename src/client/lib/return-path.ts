// Deep links kept through sign-in (issue 20): a visitor sent to /auth from a signed-in page carries the
// page in ?next=, so a reload keeps it, and returns to it after signing in or up. Only a path of this
// site is followed; anything else (another site, a scheme, '//host', '/\host') leads home.

const ORIGIN = 'https://familystar.invalid';
/** Pages that would send a signed-in user straight on: returning to them is going home. */
const NOT_A_RETURN = new Set(['/auth', '/landing']);

/** The page to open after sign-in for a `next` value from the address: a path of this site, else '/'. */
export function safeReturnPath(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//')) return '/';
  // Browsers read '\' as '/' and drop tabs and line breaks in a URL: '/\evil.example' is '//evil.example'.
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(next)) return '/';
  let url: URL;
  try {
    url = new URL(next, ORIGIN);
  } catch {
    return '/';
  }
  if (url.origin !== ORIGIN || NOT_A_RETURN.has(url.pathname)) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in page's address that returns to `path` (with its query) afterwards. */
export function signInPath(path: string): string {
  const back = safeReturnPath(path);
  return back === '/' ? '/auth' : `/auth?next=${encodeURIComponent(back)}`;
}

/** The `next` of an address's query string ('?next=…'), checked. */
export function returnPathOf(search: string): string {
  return safeReturnPath(new URLSearchParams(search).get('next'));
}
