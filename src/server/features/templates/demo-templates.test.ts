// The demo library, made from material that comes with the repository and npm install (README: Demo templates).
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoLibraryStatus, VideoTemplate } from '../../../shared/api-types';
import { probe } from '../../media/ffmpeg';
import { testDatabases } from '../../testing/databases';
import { type TestApp, createTestApp, json } from '../../testing/test-app';
import { type DemoTools, findDemoTools, seedDemoAtFirstStart, seedDemoTemplates } from './demo-templates';
import { demoLibraryPreparing, whilePreparingDemo } from './demo-status';

const [pglite] = await testDatabases();
const tools = findDemoTools();

describe('demo templates', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(pglite!);
  });
  afterAll(() => t?.close());

  it('makes at least 3 short narrated templates with a face, in different categories and ages', async () => {
    // No system package needed: the portrait is in the repository, font, voice and ffmpeg in npm packages.
    expect(tools).not.toHaveProperty('missing');
    const logs: string[] = [];
    const log = { info: (message: string) => logs.push(message), warn: (message: string) => logs.push(message) };
    const visitor = t.client();
    const status = async () => json<DemoLibraryStatus>(await visitor.get('/api/videoTemplates/demo-status'));
    expect(await status()).toEqual({ preparing: false });
    const seeding = seedDemoAtFirstStart({ db: t.database.db, storage: t.storage, dataDir: t.dataDir, log });
    // While the demo is being made (20–30 s), a visitor is told so (issue 20); the log says when it starts and ends.
    await expect.poll(status, { interval: 50 }).toEqual({ preparing: true });
    expect(logs.some((line) => line.startsWith('Demo generation started'))).toBe(true);
    await seeding;
    expect(await status()).toEqual({ preparing: false });
    expect(logs.some((line) => line.startsWith('Demo generation ended'))).toBe(true);
    expect(existsSync(`${t.dataDir}/demo-templates.done`)).toBe(true);

    const client = t.client();
    await client.register();
    const templates = json<VideoTemplate[]>(await client.get('/api/videoTemplates'));
    expect(templates.length).toBeGreaterThanOrEqual(3);
    expect(new Set(templates.map((template) => template.category)).size).toBe(templates.length);
    expect(new Set(templates.map((template) => template.ageRange)).size).toBeGreaterThan(1);
    expect(templates.some((template) => template.isPremium && template.price! > 0)).toBe(true);
    expect(templates.some((template) => template.featured)).toBe(true);
    expect(templates.some((template) => template.voiceOnly)).toBe(true);
    for (const template of templates) {
      expect(template.duration).toBeGreaterThanOrEqual(15);
      expect(template.duration).toBeLessThanOrEqual(40);
      const video = await probe(t.storage.fromUrl(template.videoUrl)!.path);
      expect(video).toMatchObject({ hasVideo: true, hasAudio: true, width: 960, height: 540 });
      const thumbnail = await client.get(template.thumbnailUrl!);
      expect(thumbnail.headers['content-type']).toBe('image/jpeg');
    }

    // Once is enough: a second run adds nothing.
    const again = await seedDemoTemplates(t.database.db, t.storage, tools as DemoTools);
    expect(again.created).toEqual([]);
  }, 120_000);

  it('reads as being prepared until the making ends, however it ends', async () => {
    const db = t.database.db;
    let finish!: () => void;
    const made = whilePreparingDemo(db, () => new Promise<void>((resolve) => (finish = resolve)));
    const failed = whilePreparingDemo(db, () => Promise.reject(new Error('ffmpeg died')));
    await expect(failed).rejects.toThrow('ffmpeg died');
    // One run failed; the other is still going.
    expect(demoLibraryPreparing(db)).toBe(true);
    finish();
    await made;
    expect(demoLibraryPreparing(db)).toBe(false);
  });
});
