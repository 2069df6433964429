// The PostgreSQL error under drizzle's wrapper: its SQLSTATE and constraint decide a client's answer
// (http/errors.ts, users/unique.ts, the admin's template delete). Imports nothing, so anyone may use it.

export interface PgError {
  /** The SQLSTATE, five characters: '23505' unique violation, '23503' foreign key, '22021' bad text. */
  code: string;
  constraint?: string;
  detail?: string;
  message?: string;
}

/** The PostgreSQL (or PGlite) error itself or somewhere in its `cause` chain (drizzle wraps it), else undefined. */
export function pgErrorOf(error: unknown): PgError | undefined {
  let current = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 5; depth++) {
    if (typeof current.code === 'string' && /^[0-9A-Z]{5}$/.test(current.code)) return current as PgError;
    current = current.cause as typeof current;
  }
  return undefined;
}
