// The one module that knows where media files live. Layout (STYLE.md, after Immich):
//   <DATA_DIR>/media/<kind>/<ownerId>/<id[0..1]>/<id[2..3]>/<id>.<ext>
// Files are named by a random id, never by the uploaded name. A row keeps the file's URL,
// /api/media/<kind>/<ownerId>/<id>.<ext>, which the media route maps back here after checking access.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Owner is a user id for people's media and processed videos, a template id for template media. */
export const MEDIA_KINDS = ['face-images', 'face-videos', 'voice-recordings', 'processed-videos', 'templates'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

export const MEDIA_URL_PREFIX = '/api/media/';

export interface StoredFile {
  kind: MediaKind;
  ownerId: number;
  /** `<uuid>.<ext>` */
  fileName: string;
  url: string;
  path: string;
}

const FILE_NAME = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([a-z0-9]{2,5})$/;

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`File is larger than ${maxBytes} bytes`);
  }
}

export function createStorage(dataDir: string) {
  const root = path.join(dataDir, 'media');
  const tmpRoot = path.join(dataDir, 'tmp');

  function locate(kind: MediaKind, ownerId: number, fileName: string): StoredFile {
    const match = FILE_NAME.exec(fileName);
    if (!match || !MEDIA_KINDS.includes(kind) || !Number.isInteger(ownerId) || ownerId <= 0) {
      throw new Error(`Not a media file name: ${kind}/${ownerId}/${fileName}`);
    }
    const id = match[1]!;
    return {
      kind,
      ownerId,
      fileName,
      url: `${MEDIA_URL_PREFIX}${kind}/${ownerId}/${fileName}`,
      path: path.join(root, kind, String(ownerId), id.slice(0, 2), id.slice(2, 4), fileName),
    };
  }

  return {
    root,

    /** A new temporary file path (same file system as storage, so moving in is a rename). */
    async tempPath(): Promise<string> {
      await mkdir(tmpRoot, { recursive: true });
      return path.join(tmpRoot, randomUUID());
    },

    /** Streams into a temporary file, failing with FileTooLargeError (and removing it) past maxBytes. */
    async writeTemp(source: Readable, maxBytes: number): Promise<{ path: string; bytes: number }> {
      const tempFile = await this.tempPath();
      let bytes = 0;
      try {
        await pipeline(
          source,
          async function* limit(chunks: AsyncIterable<Buffer>) {
            for await (const chunk of chunks) {
              bytes += chunk.length;
              if (bytes > maxBytes) throw new FileTooLargeError(maxBytes);
              yield chunk;
            }
          },
          createWriteStream(tempFile, { flags: 'wx' }),
        );
        return { path: tempFile, bytes };
      } catch (error) {
        await rm(tempFile, { force: true });
        throw error;
      }
    },

    /** Moves a temporary file into storage under a new id. */
    async moveIn(tempFile: string, kind: MediaKind, ownerId: number, ext: string): Promise<StoredFile> {
      const file = locate(kind, ownerId, `${randomUUID()}.${ext}`);
      await mkdir(path.dirname(file.path), { recursive: true });
      try {
        await rename(tempFile, file.path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        await copyFile(tempFile, file.path);
        await rm(tempFile, { force: true });
      }
      return file;
    },

    /** The stored file a media URL stands for, or undefined when it is not one of ours. */
    fromUrl(url: string | null | undefined): StoredFile | undefined {
      if (!url?.startsWith(MEDIA_URL_PREFIX)) return undefined;
      const [kind, owner, fileName, ...rest] = url.slice(MEDIA_URL_PREFIX.length).split('/');
      if (rest.length || !kind || !owner || !fileName || !/^\d+$/.test(owner)) return undefined;
      try {
        return locate(kind as MediaKind, Number(owner), fileName);
      } catch {
        return undefined;
      }
    },

    locate,

    /** Removes the file behind a media URL (no error when it is already gone). */
    async removeUrl(url: string | null | undefined): Promise<void> {
      const file = this.fromUrl(url);
      if (file) await rm(file.path, { force: true });
    },

    /** Removes temporary files and folders older than `maxAgeMs` (uploads cut off, jobs killed half-way). */
    async sweepTemp(maxAgeMs: number): Promise<number> {
      const entries = await readdir(tmpRoot).catch(() => [] as string[]);
      let removed = 0;
      for (const entry of entries) {
        const full = path.join(tmpRoot, entry);
        const info = await stat(full).catch(() => undefined);
        if (info && Date.now() - info.mtimeMs > maxAgeMs) {
          await rm(full, { recursive: true, force: true });
          removed++;
        }
      }
      return removed;
    },

    /** Bytes stored for one owner over the given kinds (a user's storage quota). */
    async usage(ownerId: number, kinds: readonly MediaKind[]): Promise<number> {
      let total = 0;
      const walk = async (dir: string) => {
        const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
        for (const entry of entries) {
          const full = path.join(dir, entry.name);
          if (entry.isDirectory()) await walk(full);
          else total += (await stat(full).catch(() => ({ size: 0 }))).size;
        }
      };
      for (const kind of kinds) await walk(path.join(root, kind, String(ownerId)));
      return total;
    },

    /** Removes every file of one owner of one kind (deleting a user, a template). */
    async removeOwner(kind: MediaKind, ownerId: number): Promise<void> {
      await rm(path.join(root, kind, String(ownerId)), { recursive: true, force: true });
    },
  };
}

export type Storage = ReturnType<typeof createStorage>;
