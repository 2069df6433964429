// Product constants shared by client and server (spec 01 §9, spec 02 §9).

export const MOBILE_BREAKPOINT_PX = 768;
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const CURRENT_USER_STALE_MS = 5 * 60 * 1000;
export const FEATURED_PLACEHOLDERS = 3;
