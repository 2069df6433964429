// The signed-in user, as every page knows it. Kept in a small store of its own rather than in the query
// library's cache, so that a visitor's first page loads none of that library (decision 005). It behaves
// as the query did: asked once and fresh for 5 minutes; asked again when a page that needs it is shown
// after that; asked again at once when the account changed (refreshCurrentUser); set directly by
// signing in and out (setCurrentUser).
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { CurrentUser } from '@shared/api-types';
import { CURRENT_USER_STALE_MS } from '@shared/constants';
import { getJson } from '@client/lib/api';
import { maybeSignedIn } from '../lib/session-hints';

interface CurrentUserState {
  /** undefined until the server has answered or a sign-in has set it; null when nobody is signed in. */
  user: CurrentUser | null | undefined;
  /** The last read's failure (the user already known is kept). */
  error: Error | null;
  reading: boolean;
  /** When the user was last read or set (0: never). */
  updatedAt: number;
  /** How many reads have ended, failed ones too: a page shown before the last one ended waits for it. */
  answers: number;
}

let state: CurrentUserState = { user: undefined, error: null, reading: false, updatedAt: 0, answers: 0 };
const listeners = new Set<() => void>();
/** The latest read, and its number: the answer of an earlier one, or of one sent before a sign-in, is old news. */
let reading: Promise<void> | undefined;
let readNumber = 0;
let signIns = 0;

function update(changes: Partial<CurrentUserState>): void {
  state = { ...state, ...changes };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getState = () => state;

function read(): Promise<void> {
  const number = ++readNumber;
  update({ reading: true });
  const latest = () => number === readNumber;
  reading = getJson<CurrentUser | null>('/api/me', { on401: 'returnNull' }).then(
    (user) => {
      if (latest()) update({ user, error: null, reading: false, updatedAt: Date.now(), answers: state.answers + 1 });
    },
    (error: unknown) => {
      if (latest()) update({ error: error instanceof Error ? error : new Error(String(error)), reading: false, answers: state.answers + 1 });
    },
  );
  void reading.finally(() => {
    if (latest()) reading = undefined;
  });
  return reading;
}

/** The user after signing in or up (the server's answer), or null after signing out. */
export function setCurrentUser(user: CurrentUser | null): void {
  readNumber++;
  signIns++;
  reading = undefined;
  update({ user, error: null, reading: false, updatedAt: Date.now() });
}

/** How many times someone signed in or out on this page: what was read for a visitor before is not reused after. */
export function signInsAndOuts(): number {
  return signIns;
}

/** Reads the user again after a change to the account (profile, plan, role); resolves once it is read. */
export function refreshCurrentUser(): Promise<void> {
  return read();
}

/**
 * The signed-in user; a 401 means nobody is signed in (null). Without the server's signed-in hint a
 * visitor's pages do not ask at all (no 401 for every visitor, decision 002). The guards of the signed-in
 * pages ask anyway (`ask: 'always'`): a session made before the hint existed is found there, and the
 * answer brings the hint.
 */
export function useCurrentUser({ ask = 'ifHinted' }: { ask?: 'ifHinted' | 'always' } = {}) {
  const current = useSyncExternalStore(subscribe, getState, getState);
  const enabled = ask === 'always' || maybeSignedIn();
  // A page that asks and has no user yet is loading from its first render until an answer ends after it.
  const [answersBefore] = useState(current.answers);
  useEffect(() => {
    const stale = state.user === undefined || Date.now() - state.updatedAt > CURRENT_USER_STALE_MS;
    if (enabled && stale && !reading) void read();
  }, [enabled]);
  const user = current.user ?? null;
  const isLoading = current.user === undefined && enabled && (current.reading || current.answers === answersBefore);
  return { user, isLoading, isAdmin: user?.role === 'admin', error: current.error };
}
