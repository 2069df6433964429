import { describe, expect, it } from 'vitest';
import { createMediaLinkSigner } from './signed-links';

const PATH = '/api/media/processed-videos/7/0f8fad5b-d9cb-469f-a165-70867728950e.mp4';
const signer = createMediaLinkSigner('a session secret of at least thirty-two characters');
const inTenMinutes = () => new Date(Date.now() + 10 * 60 * 1000);

/** The query object Fastify would hand the route for a signed URL. */
function queryOf(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url, 'http://localhost').searchParams);
}

describe('signed media links', () => {
  it('verifies its own link for exactly that path, with the download name it signed', () => {
    const link = signer.sign(PATH, inTenMinutes(), 'my-song.mp4');
    expect(link.url.startsWith(`${PATH}?`)).toBe(true);
    expect(queryOf(link.url)).toMatchObject({ download: 'my-song.mp4' });
    expect(signer.verify(PATH, queryOf(link.url))).toEqual({ downloadName: 'my-song.mp4' });

    const cast = signer.sign(PATH, inTenMinutes());
    expect(queryOf(cast.url).download).toBeUndefined();
    expect(signer.verify(PATH, queryOf(cast.url))).toEqual({ downloadName: undefined });
  });

  it('expires at whole seconds and is refused from then on', () => {
    const expiresAt = new Date(Date.now() + 60_500);
    const link = signer.sign(PATH, expiresAt);
    expect(link.expiresAt.getTime() % 1000).toBe(0);
    expect(signer.verify(PATH, queryOf(link.url), new Date(link.expiresAt.getTime() - 1))).toBeDefined();
    expect(signer.verify(PATH, queryOf(link.url), link.expiresAt)).toBeUndefined();
    expect(signer.verify(PATH, queryOf(signer.sign(PATH, new Date(Date.now() - 1000)).url))).toBeUndefined();
  });

  it('refuses a changed path, expiry, name or signature, and another secret', () => {
    const query = queryOf(signer.sign(PATH, inTenMinutes(), 'a.mp4').url);
    expect(signer.verify(PATH.replace('/7/', '/8/'), query)).toBeUndefined();
    expect(signer.verify(PATH, { ...query, expires: String(Number(query.expires) + 3600) })).toBeUndefined();
    expect(signer.verify(PATH, { ...query, download: 'b.mp4' })).toBeUndefined();
    expect(signer.verify(PATH, { ...query, download: undefined })).toBeUndefined();
    expect(signer.verify(PATH, { ...query, sig: `${query.sig!.slice(0, -1)}${query.sig!.endsWith('A') ? 'B' : 'A'}` })).toBeUndefined();
    expect(signer.verify(PATH, { ...query, sig: `${query.sig}A` })).toBeUndefined();
    expect(createMediaLinkSigner('another secret, just as long as the first one').verify(PATH, query)).toBeUndefined();
  });

  it('ignores missing or malformed parameters', () => {
    const query = queryOf(signer.sign(PATH, inTenMinutes()).url);
    for (const bad of [undefined, null, 'x', {}, { sig: query.sig }, { expires: query.expires }, { ...query, expires: '1e12' }, { ...query, sig: [query.sig] }]) {
      expect(signer.verify(PATH, bad)).toBeUndefined();
    }
  });
});
