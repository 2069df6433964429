// What a log line may hold (decision 015, Text input): the operator's detail, never a user's secrets. A
// failed query's error carries its parameters (a password hash, an e-mail address) in its message and
// fields, and PostgreSQL's `detail` repeats the row ("Failing row contains (..., alice@example.com,
// scrypt$...)"): errors are logged by kind, code, message without the parameters, and stack. Request
// lines keep the query string's names, not its values (a signed media link's signature). Cookies and
// credentials are redacted wherever a header object is logged.
import type { LoggerOptions } from 'pino';

/** Fields of an error (pg's DatabaseError, Node's system errors, Fastify's) that name what failed without holding data. */
const SAFE_FIELDS = ['code', 'statusCode', 'severity', 'constraint', 'table', 'column', 'schema', 'routine', 'errno', 'syscall'] as const;

/** drizzle's DrizzleQueryError message is `Failed query: <sql>\nparams: <values>`. */
const withoutParams = (message: string) => message.replace(/\nparams:[\s\S]*$/, '');

export interface SafeError {
  type: string;
  message: string;
  stack?: string;
  /** The failed statement's text, with placeholders ($1, $2) where the values were. */
  query?: string;
  cause?: SafeError | string;
  [field: string]: unknown;
}

export function safeError(error: unknown, depth = 0): SafeError | string {
  if (!(error instanceof Error)) return typeof error === 'string' ? withoutParams(error) : `non-error thrown: ${typeof error}`;
  const type = error.constructor?.name || error.name;
  const message = withoutParams(error.message);
  const frames = error.stack?.split('\n').filter((line) => /^\s+at /.test(line)) ?? [];
  const safe: SafeError = { type, message, stack: [`${type}: ${message}`, ...frames].join('\n') };
  const fields = error as unknown as Record<string, unknown>;
  for (const field of SAFE_FIELDS) {
    const value = fields[field];
    if (typeof value === 'string' || typeof value === 'number') safe[field] = value;
  }
  // drizzle keeps the statement apart from its params; PGlite's own error repeats both (only the text is kept).
  if (typeof fields.query === 'string') safe.query = fields.query;
  if (error.cause !== undefined && depth < 3) safe.cause = safeError(error.cause, depth + 1);
  return safe;
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** `/api/media/x?expires=…&sig=…`: the names say what was asked, the values may be credentials. */
export function urlWithoutQueryValues(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const names = url
    .slice(at + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => `${pair.split('=')[0]}=…`);
  return `${url.slice(0, at)}?${names.join('&')}`;
}

const REDACTED = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  'headers["set-cookie"]',
  'password',
  '*.password',
  'email',
  '*.email',
];

/** The pino options of every process's logger (the web app's Fastify logger and `npm run worker`'s). */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED, censor: '[redacted]' },
    serializers: {
      err: safeError,
      req: (request: LoggedRequest) => ({
        method: request.method,
        url: urlWithoutQueryValues(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}
