// Product constants shared by client and server (spec 01 §9, spec 02 §9).

export const MOBILE_BREAKPOINT_PX = 768;
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const CURRENT_USER_STALE_MS = 5 * 60 * 1000;
export const FEATURED_PLACEHOLDERS = 3;

/**
 * A plain cookie (readable by the page, unlike the httpOnly session cookie) that the server sets beside the
 * session at sign-in and clears at sign-out: the visitor's pages skip GET /api/me without it (decision 002).
 * A hint only, never a credential: the session cookie alone signs anyone in.
 */
export const SIGNED_IN_HINT_COOKIE = 'familystar.signed-in';
