import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, getQueryFn, pathFromQueryKey } from './api';

function stubFetch(response: Response) {
  const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(response);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function failureMessage(response: Response): Promise<string> {
  stubFetch(response);
  const error = await apiRequest('GET', '/api/x').catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(response.status);
  return (error as ApiError).message;
}

afterEach(() => vi.unstubAllGlobals());

describe('apiRequest', () => {
  it('sends the cookie, and JSON only when there is a body', async () => {
    const fetchMock = stubFetch(new Response('{"id":1}', { status: 200 }));
    await expect(apiRequest('POST', '/api/login', { username: 'a' })).resolves.toEqual({ id: 1 });
    expect(fetchMock).toHaveBeenCalledWith('/api/login', expect.objectContaining({
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: '{"username":"a"}',
    }));

    stubFetch(new Response(null, { status: 204 }));
    await expect(apiRequest('POST', '/api/logout')).resolves.toBeUndefined();
    const [, init] = vi.mocked(fetch).mock.calls[0]!;
    expect(init).toMatchObject({ credentials: 'include', headers: undefined, body: undefined });
  });

  it('takes the error message in the spec order', async () => {
    const json = (body: unknown, status = 400) => new Response(JSON.stringify(body), { status });
    expect(await failureMessage(json({ message: 'Bad input', error: 'ignored' }))).toBe('Bad input');
    expect(await failureMessage(json({ error: 'Conflict here' }, 409))).toBe('Conflict here');
    expect(await failureMessage(json({ detail: 'x' }))).toBe('{"detail":"x"}');
    expect(await failureMessage(new Response('Gateway exploded', { status: 502 }))).toBe('Gateway exploded');
    expect(await failureMessage(new Response('', { status: 503, statusText: 'Service Unavailable' }))).toBe(
      'Service Unavailable',
    );
    expect(await failureMessage(new Response('', { status: 500 }))).toBe('Request failed with status 500');
  });
});

describe('getQueryFn', () => {
  const context = (queryKey: unknown[]) =>
    ({ queryKey, signal: new AbortController().signal, meta: undefined, client: undefined }) as never;

  it('reads the path from the query key', async () => {
    expect(pathFromQueryKey(['/api/users', 5])).toBe('/api/users/5');
    const fetchMock = stubFetch(new Response('[]', { status: 200 }));
    await expect(getQueryFn({ on401: 'throw' })(context(['/api/people', 3, 'faceImages']))).resolves.toEqual([]);
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/people/3/faceImages');
  });

  it('turns a 401 into null only when asked to', async () => {
    const unauthorized = () => new Response('{"message":"You must be logged in"}', { status: 401 });
    stubFetch(unauthorized());
    await expect(getQueryFn({ on401: 'returnNull' })(context(['/api/me']))).resolves.toBeNull();
    stubFetch(unauthorized());
    await expect(getQueryFn({ on401: 'throw' })(context(['/api/me']))).rejects.toThrow('You must be logged in');
  });
});
