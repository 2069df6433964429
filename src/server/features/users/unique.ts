// Maps a unique-index violation on users to the message a person reads (409).
import { MESSAGES } from '../../../shared/validation';
import { pgErrorOf } from '../../db/pg-error';
import { conflict } from '../../http/errors';

export function rethrowUserConflict(error: unknown): never {
  const pgError = pgErrorOf(error);
  if (pgError?.code === '23505') {
    const where = `${pgError.constraint ?? ''} ${pgError.detail ?? ''} ${pgError.message ?? ''}`;
    if (where.includes('username')) throw conflict(MESSAGES.usernameTaken);
    if (where.includes('email')) throw conflict(MESSAGES.emailTaken);
  }
  throw error;
}
