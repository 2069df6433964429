// Maps a unique-index violation on users to the message a person reads (409).
import { MESSAGES } from '../../../shared/validation';
import { conflict } from '../../http/errors';

interface PgError {
  code?: string;
  constraint?: string;
  detail?: string;
  message?: string;
  cause?: unknown;
}

/** drizzle wraps driver errors; find the PostgreSQL error underneath. */
export function pgErrorOf(error: unknown): PgError | undefined {
  let current = error as PgError | undefined;
  for (let depth = 0; current && depth < 5; depth++) {
    if (typeof current.code === 'string' && /^[0-9A-Z]{5}$/.test(current.code)) return current;
    current = current.cause as PgError | undefined;
  }
  return undefined;
}

export function rethrowUserConflict(error: unknown): never {
  const pgError = pgErrorOf(error);
  if (pgError?.code === '23505') {
    const where = `${pgError.constraint ?? ''} ${pgError.detail ?? ''} ${pgError.message ?? ''}`;
    if (where.includes('username')) throw conflict(MESSAGES.usernameTaken);
    if (where.includes('email')) throw conflict(MESSAGES.emailTaken);
  }
  throw error;
}
