// The one module that knows where media files live. Layout (STYLE.md, after Immich):
//   <DATA_DIR>/media/<kind>/<ownerId>/<id[0..1]>/<id[2..3]>/<id>.<ext>
// Files are named by a random id, never by the uploaded name. A row keeps the file's URL,
// /api/media/<kind>/<ownerId>/<id>.<ext>, which the media route maps back here after checking access.
//
// Temporary files (uploads in flight, jobs' work folders) live in a folder of the process that made
// them, <DATA_DIR>/tmp/<host>_<pid>_<random>, since several processes may share DATA_DIR (decision 015).
import { once } from 'node:events';
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, readlinkSync } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { processIsAlive } from '../process-alive';

/**
 * Owner is a user id for people's media, processed videos and data exports ('Download my data' zips), a
 * template id for template media.
 */
export const MEDIA_KINDS = ['face-images', 'face-videos', 'voice-recordings', 'processed-videos', 'templates', 'exports'] as const;
/** The kinds owned by a user (all but templates): an account's deletion removes their folders. */
export const USER_MEDIA_KINDS = MEDIA_KINDS.filter((kind) => kind !== 'templates');
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

/** A process's temporary folder: `<host>_<pid>_<8 hex>` (host made file-name safe). */
const TEMP_FOLDER = /^(.+)_(\d+)_([0-9a-f]{8})$/;
/**
 * Where a pid means something: the host name, and on Linux the pid namespace (containers sharing a
 * host name, as with host networking, each have their own pids).
 */
export const TEMP_HOST = [hostname(), pidNamespace()]
  .filter(Boolean)
  .join('-')
  .replace(/[^A-Za-z0-9.-]/g, '-');

function pidNamespace(): string | undefined {
  try {
    return /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1];
  } catch {
    return undefined;
  }
}

/**
 * A process touches its temporary folder every minute; a folder untouched for ten is nobody's (the
 * only test that works for a process of another host or container, whose pid means nothing here).
 */
const HEARTBEAT_MS = 60 * 1000;
const HEARTBEAT_STALE_MS = 10 * 60 * 1000;
/** Temporary folders of this process's storages (tests build several in one process). */
const ownFolders = new Set<string>();

/**
 * Whether a temporary folder's process is gone: of this host, its pid is dead, or is ours under another
 * name (an earlier life of this process); of any host, it has not been touched for ten minutes.
 */
async function ownerIsGone(tmpRoot: string, folder: string): Promise<boolean> {
  const match = TEMP_FOLDER.exec(folder);
  if (!match || ownFolders.has(folder)) return false;
  const pid = Number(match[2]);
  if (match[1] === TEMP_HOST && (pid === process.pid || !processIsAlive(pid))) return true;
  const info = await stat(path.join(tmpRoot, folder)).catch(() => undefined);
  return info !== undefined && Date.now() - info.mtimeMs > HEARTBEAT_STALE_MS;
}

export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`File is larger than ${maxBytes} bytes`);
  }
}

export function createStorage(dataDir: string, options: { heartbeatMs?: number } = {}) {
  const root = path.join(dataDir, 'media');
  const tmpRoot = path.join(dataDir, 'tmp');
  const ownFolder = `${TEMP_HOST}_${process.pid}_${randomBytes(4).toString('hex')}`;
  ownFolders.add(ownFolder);
  const ownTmp = path.join(tmpRoot, ownFolder);
  let heartbeat: NodeJS.Timeout | undefined;

  /** Makes this process's temporary folder (again: a sweep may have found it empty and idle) and keeps it touched. */
  async function makeOwnTemp(): Promise<void> {
    await mkdir(ownTmp, { recursive: true });
    heartbeat ??= setInterval(() => {
      const now = new Date();
      utimes(ownTmp, now, now).catch(() => {});
    }, options.heartbeatMs ?? HEARTBEAT_MS).unref();
  }

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

    /** This process's temporary folder. */
    tempFolder: ownTmp,

    /** A new temporary file path (same file system as storage, so moving in is a rename). */
    async tempPath(): Promise<string> {
      await makeOwnTemp();
      return path.join(ownTmp, randomUUID());
    },

    /**
     * At start: removes the temporary folders left by processes that are gone (a crash, a kill), with
     * the partial uploads and half-done work in them, and makes this process's own. The folders of
     * processes still running (another web process, a worker) are kept. Returns how many went.
     */
    async startTemp(): Promise<number> {
      const entries = await readdir(tmpRoot).catch(() => [] as string[]);
      const gone = [];
      for (const entry of entries) if (await ownerIsGone(tmpRoot, entry)) gone.push(entry);
      await Promise.all(gone.map((entry) => rm(path.join(tmpRoot, entry), { recursive: true, force: true })));
      await makeOwnTemp();
      return gone.length;
    },

    /** At a clean shutdown (after uploads and jobs have stopped): removes this process's temporary folder. */
    async removeOwnTemp(): Promise<void> {
      clearInterval(heartbeat);
      heartbeat = undefined;
      await rm(ownTmp, { recursive: true, force: true });
    },

    /** Streams into a temporary file, failing with FileTooLargeError (and removing it) past maxBytes. */
    async writeTemp(source: Readable, maxBytes: number): Promise<{ path: string; bytes: number }> {
      const tempFile = await this.tempPath();
      let bytes = 0;
      const out = createWriteStream(tempFile, { flags: 'wx' });
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
          out,
        );
        return { path: tempFile, bytes };
      } catch (error) {
        // The file is opened asynchronously: when the source fails first, it can be created after a plain
        // rm. Wait until the stream has closed (open, then destroyed), then remove it.
        if (!out.closed) await once(out, 'close').catch(() => undefined);
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

    /**
     * Removes the file behind a media URL (no error when it is already gone), and what was derived from it
     * and kept beside it as `<fileName>.<suffix>` (a template's recorded actor track).
     */
    async removeUrl(url: string | null | undefined): Promise<void> {
      const file = this.fromUrl(url);
      if (!file) return;
      await rm(file.path, { force: true });
      const siblings = await readdir(path.dirname(file.path)).catch(() => [] as string[]);
      await Promise.all(siblings.filter((name) => name.startsWith(`${file.fileName}.`)).map((name) => rm(path.join(path.dirname(file.path), name), { force: true })));
    },

    /**
     * The periodic sweep: removes the folders of processes that are gone (as at start), and in the
     * others, files and folders older than `maxAgeMs` (uploads cut off, jobs killed half-way). Returns
     * how many entries went.
     */
    async sweepTemp(maxAgeMs: number): Promise<number> {
      const olderThan = async (full: string, ageMs: number) => {
        const info = await stat(full).catch(() => undefined);
        return info !== undefined && Date.now() - info.mtimeMs > ageMs;
      };
      const removeOld = async (folder: string) => {
        let removed = 0;
        for (const entry of await readdir(folder).catch(() => [] as string[])) {
          const full = path.join(folder, entry);
          if (await olderThan(full, maxAgeMs)) {
            await rm(full, { recursive: true, force: true });
            removed++;
          }
        }
        return removed;
      };
      let removed = 0;
      for (const entry of await readdir(tmpRoot).catch(() => [] as string[])) {
        const full = path.join(tmpRoot, entry);
        if (!TEMP_FOLDER.test(entry)) {
          // A file of the layout before per-process folders.
          if (await olderThan(full, maxAgeMs)) {
            await rm(full, { recursive: true, force: true });
            removed++;
          }
        } else if (await ownerIsGone(tmpRoot, entry)) {
          await rm(full, { recursive: true, force: true });
          removed++;
        } else {
          removed += await removeOld(full);
        }
      }
      return removed;
    },

    /**
     * Bytes stored for one owner over the given kinds (a user's storage quota): the stored files themselves,
     * not what the app derives from them and keeps beside them (`<fileName>.<suffix>`: a photo's prepared face).
     */
    async usage(ownerId: number, kinds: readonly MediaKind[]): Promise<number> {
      let total = 0;
      const walk = async (dir: string) => {
        const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
        for (const entry of entries) {
          const full = path.join(dir, entry.name);
          if (entry.isDirectory()) await walk(full);
          else if (FILE_NAME.test(entry.name)) total += (await stat(full).catch(() => ({ size: 0 }))).size;
        }
      };
      for (const kind of kinds) await walk(path.join(root, kind, String(ownerId)));
      return total;
    },

    /** The owners that have a folder of this kind (the maintenance job's check for folders nobody owns). */
    async ownersOf(kind: MediaKind): Promise<number[]> {
      const entries = await readdir(path.join(root, kind)).catch(() => [] as string[]);
      return entries.filter((entry) => /^[1-9]\d*$/.test(entry)).map(Number);
    },

    /** Removes every file of one owner of one kind (deleting a user, a template). */
    async removeOwner(kind: MediaKind, ownerId: number): Promise<void> {
      await rm(path.join(root, kind, String(ownerId)), { recursive: true, force: true });
    },
  };
}

export type Storage = ReturnType<typeof createStorage>;
