// The one API client: every request carries the session cookie, and every non-OK response
// becomes an ApiError whose message is the one the user should read (spec 01 §8).
import type { QueryFunction } from '@tanstack/react-query';
import type { ErrorCode } from '@shared/api-types';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export class ApiError extends Error {
  readonly status: number;
  /** What the client may offer besides the words (a plan limit: the upgrade). */
  readonly code?: ErrorCode;

  constructor(status: number, message: string, code?: ErrorCode) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

/** True when the server refused because a plan's limit was reached. */
export function isPlanLimit(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'plan_limit';
}

/** The message of a failed response, in the spec's order: message, error, the JSON, the text, the status text. */
async function errorOf(response: Response): Promise<{ message: string; code?: ErrorCode }> {
  const text = await response.text().catch(() => '');
  if (text) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { message: text };
    }
    if (body !== null && typeof body === 'object') {
      const { message, error, code } = body as Record<string, unknown>;
      const known = code === 'plan_limit' ? code : undefined;
      if (typeof message === 'string' && message) return { message, code: known };
      if (typeof error === 'string' && error) return { message: error, code: known };
    }
    return { message: JSON.stringify(body) };
  }
  return { message: response.statusText || `Request failed with status ${response.status}` };
}

async function throwIfNotOk(response: Response): Promise<void> {
  if (!response.ok) {
    const { message, code } = await errorOf(response);
    throw new ApiError(response.status, message, code);
  }
}

/** A 204 or an empty body reads as undefined; anything else is JSON. */
async function readBody<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

function send(method: HttpMethod, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
  const hasBody = body !== undefined;
  return fetch(path, {
    method,
    credentials: 'include',
    headers: hasBody ? { 'Content-Type': 'application/json' } : undefined,
    body: hasBody ? JSON.stringify(body) : undefined,
    signal,
  });
}

export async function apiRequest<T>(method: HttpMethod, path: string, body?: unknown): Promise<T> {
  const response = await send(method, path, body);
  await throwIfNotOk(response);
  return readBody<T>(response);
}

/** The path a query key stands for: ['/api/users', 5] → '/api/users/5'. Non-primitive parts are ignored. */
export function pathFromQueryKey(queryKey: readonly unknown[]): string {
  return queryKey
    .filter((part): part is string | number => typeof part === 'string' || typeof part === 'number')
    .join('/');
}

/** A GET of a path. With on401 'returnNull' a 401 reads as null (nobody signed in). */
export async function getJson<T>(path: string, { on401, signal }: { on401: 'returnNull' | 'throw'; signal?: AbortSignal }): Promise<T> {
  const response = await send('GET', path, undefined, signal);
  if (on401 === 'returnNull' && response.status === 401) return null as T;
  await throwIfNotOk(response);
  return readBody<T>(response);
}

/** A GET of the path held in the query key. With on401 'returnNull' a 401 reads as null (nobody signed in). */
export function getQueryFn<T>({ on401 }: { on401: 'returnNull' | 'throw' }): QueryFunction<T> {
  return ({ queryKey, signal }) => getJson<T>(pathFromQueryKey(queryKey), { on401, signal });
}

/**
 * A multipart POST that reports upload progress (0–100), which fetch cannot do. It sends the cookie
 * and reads errors exactly as apiRequest does.
 */
export function uploadWithProgress<T>(path: string, form: FormData, onProgress?: (percent: number) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && onProgress) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onerror = () => reject(new ApiError(0, 'Network error: the upload did not reach the server'));
    xhr.onabort = () => reject(new ApiError(0, 'The upload was cancelled'));
    xhr.onload = () => {
      const response = new Response(xhr.status === 204 ? null : xhr.responseText, {
        status: xhr.status,
        statusText: xhr.statusText,
      });
      void (async () => {
        try {
          await throwIfNotOk(response);
          onProgress?.(100);
          resolve(await readBody<T>(response));
        } catch (error) {
          reject(error);
        }
      })();
    };
    xhr.send(form);
  });
}
