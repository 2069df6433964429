// What the page knows of the session without asking the server (decision 002): whether the server's
// signed-in hint cookie is there, and whether the account was made in this tab (the welcome on Home).
import { SIGNED_IN_HINT_COOKIE } from '@shared/constants';

/** False when this browser holds no session for sure: the server sets the hint with the session and clears it with it. */
export function maybeSignedIn(): boolean {
  return document.cookie.split(';').some((part) => part.trimStart().startsWith(`${SIGNED_IN_HINT_COOKIE}=`));
}

/**
 * The session ended without a sign-out call (the account was deleted; the server ended the session): the
 * hint goes too, or the next visitor page would ask GET /api/me once and read a 401.
 */
export function forgetSignedIn(): void {
  document.cookie = `${SIGNED_IN_HINT_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
  forgetNewAccount();
}

// In this tab's sessionStorage: a reload of the first screen still greets a new account, a new tab says welcome back.
const NEW_ACCOUNT_KEY = 'familystar.new-account';

/** After a sign-up: this account is new, until it signs out or another account signs in. */
export function rememberNewAccount(userId: number): void {
  try {
    sessionStorage.setItem(NEW_ACCOUNT_KEY, String(userId));
  } catch {
    // storage refused (private mode, full): the greeting is only a greeting
  }
}

export function isNewAccount(userId: number): boolean {
  try {
    return sessionStorage.getItem(NEW_ACCOUNT_KEY) === String(userId);
  } catch {
    return false;
  }
}

export function forgetNewAccount(): void {
  try {
    sessionStorage.removeItem(NEW_ACCOUNT_KEY);
  } catch {
    // nothing kept, nothing to forget
  }
}
