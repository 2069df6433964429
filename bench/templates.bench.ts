// The template library with 500 templates: GET /api/videoTemplates under load (50 connections), and
// the library page's first render in Chromium (navigation start → the 500th card in the grid).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchBrowser } from '../e2e/harness';
import { ffmpegBinary } from '../src/server/media/ffmpeg';
import { load, startServer, registerAndSignIn } from './lib';

const TEMPLATES = 500;

export async function benchTemplates() {
  const server = await startServer();
  const scratch = mkdtempSync(path.join(tmpdir(), 'familystar-bench-templates-'));
  const browser = await launchBrowser();
  try {
    const cookie = await registerAndSignIn(server.baseUrl, 'bench_admin');

    // One real upload; the other 499 point at its files (the JSON create takes URLs).
    const clip = path.join(scratch, 'clip.mp4');
    execFileSync(ffmpegBinary(), ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25', '-f', 'lavfi', '-i', 'sine',
      '-t', '20', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart', clip]);
    const form = new FormData();
    for (const [key, value] of Object.entries({ title: 'Bench Template 0', description: 'A template for the benchmark.', category: 'counting', ageRange: '3-5' })) {
      form.append(key, value);
    }
    form.append('video', new Blob([readFileSync(clip)], { type: 'video/mp4' }), 'clip.mp4');
    const uploaded = await fetch(`${server.baseUrl}/api/admin/videoTemplates/upload`, { method: 'POST', headers: { cookie }, body: form });
    if (uploaded.status !== 201) throw new Error(`upload failed: ${uploaded.status} ${await uploaded.text()}`);
    const first = (await uploaded.json()) as { thumbnailUrl: string; videoUrl: string };

    const categories = ['counting', 'alphabet', 'colors', 'animals', 'music', 'science'];
    const ages = ['0-2', '1-3', '2-4', '3-5', '4-6', '6-8'];
    const insertStarted = Date.now();
    for (let index = 1; index < TEMPLATES; index++) {
      const premium = index % 4 === 0;
      const response = await fetch(`${server.baseUrl}/api/admin/videoTemplates`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({
          title: `Bench Template ${index}`,
          description: `Template number ${index} of the benchmark library, with a description long enough to wrap onto two lines.`,
          category: categories[index % categories.length],
          ageRange: ages[index % ages.length],
          duration: 15 + (index % 30),
          featured: index % 50 === 0,
          isPremium: premium,
          price: premium ? 1.99 + (index % 5) : null,
          thumbnailUrl: first.thumbnailUrl,
          videoUrl: first.videoUrl,
        }),
      });
      if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
    }
    const insertSeconds = (Date.now() - insertStarted) / 1000;

    const list = await fetch(`${server.baseUrl}/api/videoTemplates`, { headers: { cookie } });
    const body = await list.text();
    const count = (JSON.parse(body) as unknown[]).length;
    if (count !== TEMPLATES) throw new Error(`expected ${TEMPLATES} templates, got ${count}`);

    // As a browser asks for it: gzip accepted.
    const api = await load(`${server.baseUrl}/api/videoTemplates`, { connections: 50, headers: { cookie, 'accept-encoding': 'gzip' } });
    if (api.non2xx > 0 || api.errors > 0) throw new Error(`the list answered ${api.non2xx} non-2xx and ${api.errors} errors`);

    // First render: a fresh page each time (cold caches for the page's data; the JS is cached after run 1).
    const renders: number[] = [];
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies([{ name: cookie.split('=')[0]!, value: cookie.slice(cookie.indexOf('=') + 1), url: server.baseUrl }]);
    for (let run = 0; run < 5; run++) {
      const page = await context.newPage();
      await page.goto(`${server.baseUrl}/library`, { waitUntil: 'commit' });
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="template-card"]').length === n, TEMPLATES, { timeout: 60_000 });
      renders.push(Math.round(await page.evaluate(() => performance.now())));
      await page.close();
    }
    await context.close();
    const sorted = [...renders].sort((a, b) => a - b);

    return {
      templates: TEMPLATES,
      insertThroughAdminApiS: Number(insertSeconds.toFixed(1)),
      listResponseKb: Number((body.length / 1024).toFixed(1)),
      'GET /api/videoTemplates (500 templates, 50 connections, PGlite)': api,
      libraryFirstRenderMs: { runs: renders, median: sorted[Math.floor(sorted.length / 2)], note: 'navigation start → 500th card in the DOM; run 1 has a cold JS cache' },
    };
  } finally {
    await browser.close();
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
