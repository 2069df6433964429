// GET /api/videoTemplates is the library's one call and the list changes only when an admin edits
// it, so the serialised list (and its gzip) is kept in memory: ~13 ms of PGlite query and JSON per
// request for 500 templates becomes a buffer copy. This process's own writes drop it at once; other
// processes (server mode) see a change within MAX_AGE_MS.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { desc } from 'drizzle-orm';
import type { Db } from '../../db/open';
import { videoTemplates } from '../../db/schema';
import { toTemplate } from './serialize';

const MAX_AGE_MS = 2000;
const gzipAsync = promisify(gzip);

export interface TemplateListBody {
  json: Buffer;
  gzip: Buffer;
  etag: string;
}

function createCache(db: Db) {
  let current: { at: number; body: Promise<TemplateListBody> } | undefined;
  let generation = 0;

  async function build(): Promise<TemplateListBody> {
    const rows = await db.select().from(videoTemplates).orderBy(desc(videoTemplates.createdAt), desc(videoTemplates.id));
    const json = Buffer.from(JSON.stringify(rows.map(toTemplate)));
    const etag = `"${createHash('sha1').update(json).digest('base64url')}"`;
    return { json, gzip: await gzipAsync(json, { level: 6 }), etag };
  }

  return {
    get(): Promise<TemplateListBody> {
      if (!current || Date.now() - current.at > MAX_AGE_MS) {
        const mine = ++generation;
        const body = build();
        current = { at: Date.now(), body };
        // A failed build is not kept.
        body.catch(() => {
          if (generation === mine) current = undefined;
        });
      }
      return current.body;
    },
    invalidate(): void {
      generation++;
      current = undefined;
    },
  };
}

const caches = new WeakMap<Db, ReturnType<typeof createCache>>();

/** The list cache of one database (the routes and the demo seeding share it). */
export function templateListCache(db: Db) {
  let cache = caches.get(db);
  if (!cache) {
    cache = createCache(db);
    caches.set(db, cache);
  }
  return cache;
}
