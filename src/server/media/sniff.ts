// What a file really is, from its first bytes (never from its name or declared type).

export interface SniffedType {
  mime: string;
  ext: string;
  family: 'image' | 'audio' | 'video' | 'container';
}

const ascii = (bytes: Uint8Array, start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));

export function sniff(head: Uint8Array): SniffedType | undefined {
  if (head.length < 12) return undefined;
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { mime: 'image/jpeg', ext: 'jpg', family: 'image' };
  if (ascii(head, 0, 8) === '\x89PNG\r\n\x1a\n') return { mime: 'image/png', ext: 'png', family: 'image' };
  if (ascii(head, 0, 4) === 'RIFF') {
    const format = ascii(head, 8, 12);
    if (format === 'WEBP') return { mime: 'image/webp', ext: 'webp', family: 'image' };
    if (format === 'WAVE') return { mime: 'audio/wav', ext: 'wav', family: 'audio' };
    if (format === 'AVI ') return { mime: 'video/x-msvideo', ext: 'avi', family: 'video' };
    return undefined;
  }
  if (ascii(head, 0, 4) === 'OggS') return { mime: 'audio/ogg', ext: 'ogg', family: 'audio' };
  // Matroska / WebM: audio or video is decided by probing the streams, and whether the codecs are WebM's
  // by their names (ingest.ts); the header's DocType tells the two apart as far as it goes.
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) {
    return docType(head) === 'webm'
      ? { mime: 'video/webm', ext: 'webm', family: 'container' }
      : { mime: 'video/x-matroska', ext: 'mkv', family: 'container' };
  }
  if (ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (brand === 'qt  ') return { mime: 'video/quicktime', ext: 'mov', family: 'video' };
    if (brand.startsWith('M4A')) return { mime: 'audio/mp4', ext: 'm4a', family: 'audio' };
    return { mime: 'video/mp4', ext: 'mp4', family: 'container' };
  }
  return undefined;
}

/** The EBML header's DocType ('webm', 'matroska'), when it is within the bytes read. */
function docType(head: Uint8Array): string | undefined {
  for (let at = 4; at + 3 < head.length; at++) {
    if (head[at] !== 0x42 || head[at + 1] !== 0x82) continue;
    const size = head[at + 2]!;
    // A one-byte size (0x80 | length): what every muxer writes for a DocType.
    if (size < 0x81 || size > 0x80 + 16) return undefined;
    return ascii(head, at + 3, Math.min(head.length, at + 3 + (size & 0x7f)));
  }
  return undefined;
}

/** Codecs a WebM file may hold (the WebM spec); other codecs in Matroska are stored otherwise (ingest.ts). */
export const WEBM_CODECS = { video: ['vp8', 'vp9', 'av1'], audio: ['opus', 'vorbis'] } as const;

/** The Content-Type to send for a stored file's extension. */
export const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  weba: 'audio/webm',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
  zip: 'application/zip',
};
