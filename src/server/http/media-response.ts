// Sends a stored media file: ETag, and HTTP Range (with If-Range) so players can seek. People's media
// (faces, voices, clips, videos: biometric data) is never stored by the browser (`no-store`), so after a
// delete or a sign-out nothing of it can be shown from the cache; template media may be kept an hour.
// Access is checked by the caller before this runs.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONTENT_TYPES } from '../media/sniff';
import { notFound } from './errors';

/** Parses a single `bytes=` range; multiple ranges are answered with the whole file. */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = header && /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, from, to] = match;
  let start: number;
  let end: number;
  if (from === '') {
    if (to === '') return undefined;
    start = Math.max(0, size - Number(to));
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  }
  if (start > end || start >= size) return 'unsatisfiable';
  return { start, end };
}

export async function sendMediaFile(
  request: FastifyRequest,
  reply: FastifyReply,
  filePath: string,
  options: { cache?: 'template' | 'personal'; downloadName?: string } = {},
) {
  const info = await stat(filePath).catch(() => undefined);
  if (!info?.isFile()) throw notFound('File not found');
  const size = info.size;
  const etag = `"${size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  const type = CONTENT_TYPES[path.extname(filePath).slice(1)] ?? 'application/octet-stream';

  reply
    .header('content-type', type)
    .header('accept-ranges', 'bytes')
    .header('cache-control', options.cache === 'template' ? 'private, max-age=3600' : 'no-store')
    .header('etag', etag)
    .header('last-modified', info.mtime.toUTCString())
    .header('x-content-type-options', 'nosniff');
  if (options.downloadName) {
    reply.header('content-disposition', `attachment; filename="${options.downloadName.replace(/[^\w.-]/g, '_')}"`);
  }
  if (request.headers['if-none-match'] === etag) return reply.status(304).send();

  // If-Range: a range only of the very file the client has part of; another version is sent whole.
  const ifRange = request.headers['if-range'];
  const sameFile = ifRange === undefined || ifRange === etag || ifRange === info.mtime.toUTCString();
  const range = sameFile ? parseRange(request.headers.range, size) : undefined;
  if (range === 'unsatisfiable') {
    return reply.status(416).header('content-range', `bytes */${size}`).send();
  }
  if (range) {
    return reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .header('content-length', range.end - range.start + 1)
      .send(createReadStream(filePath, { start: range.start, end: range.end }));
  }
  return reply.header('content-length', size).send(createReadStream(filePath));
}
