// Short-lived signed media URLs: a TV (cast) or a download fetches a file without the session cookie, so
// the URL itself carries the permission: `?expires=<unix seconds>&sig=<HMAC>[&download=<file name>]`.
// The HMAC covers the path, the expiry and the download name, so none of them can be changed.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SignedLink {
  /** The path with the signature's query string. */
  url: string;
  expiresAt: Date;
}

export interface MediaLinkSigner {
  /** Signs `path` (a media URL path, no query) until `expiresAt`; a `downloadName` makes it a download. */
  sign(path: string, expiresAt: Date, downloadName?: string): SignedLink;
  /**
   * The signed grant when `query` carries a valid, unexpired signature for exactly `path`, else undefined
   * (the caller then checks the cookie as usual).
   */
  verify(path: string, query: unknown, now?: Date): { downloadName: string | undefined } | undefined;
}

/** A key of its own, derived from the session secret, so a media signature can never pass for a cookie's. */
export function createMediaLinkSigner(sessionSecret: string): MediaLinkSigner {
  const key = createHmac('sha256', sessionSecret).update('media-links').digest();
  // Newlines cannot occur in a URL path, a decimal number or a file name we sign, so the fields cannot run into each other.
  const signature = (path: string, expires: string, downloadName: string) =>
    createHmac('sha256', key).update(`${path}\n${expires}\n${downloadName}`).digest('base64url');

  return {
    sign(path, expiresAt, downloadName) {
      const expires = String(Math.floor(expiresAt.getTime() / 1000));
      const query = new URLSearchParams({ expires, sig: signature(path, expires, downloadName ?? '') });
      if (downloadName) query.set('download', downloadName);
      return { url: `${path}?${query.toString()}`, expiresAt: new Date(Number(expires) * 1000) };
    },

    verify(path, query, now = new Date()) {
      if (!query || typeof query !== 'object') return undefined;
      const { expires, sig, download } = query as Record<string, unknown>;
      if (typeof expires !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(expires)) return undefined;
      if (download !== undefined && typeof download !== 'string') return undefined;
      if (Number(expires) * 1000 <= now.getTime()) return undefined;
      const expected = Buffer.from(signature(path, expires, download ?? ''));
      const given = Buffer.from(sig);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      return { downloadName: download || undefined };
    },
  };
}
