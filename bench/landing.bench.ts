// Landing page: the JavaScript the browser fetched before first paint (gzipped), and the server's idle RSS.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchBrowser } from '../e2e/harness';
import { rssMb, startServer } from './lib';

const idleRss = async (dataDir: string) => {
  // Idle: nothing in flight for a while.
  await new Promise((resolve) => setTimeout(resolve, 5000));
  return rssMb(Number(readFileSync(path.join(dataDir, 'db.lock'), 'utf8')));
};

export async function benchLanding() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'familystar-bench-'));
  let server = await startServer({ dataDir });
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${server.baseUrl}/landing`, { waitUntil: 'networkidle' });
    const { fcp, scripts } = await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      const fcp = paint ? paint.startTime : Number.POSITIVE_INFINITY;
      const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((entry) => entry.name.endsWith('.js') && entry.startTime <= fcp)
        .map((entry) => new URL(entry.name).pathname);
      return { fcp, scripts };
    });
    if (!Number.isFinite(fcp)) throw new Error('no first-contentful-paint entry');
    const files = scripts.map((pathname) => {
      const content = readFileSync(path.join('dist/client', pathname));
      return { file: pathname, rawKb: +(content.length / 1024).toFixed(1), gzipKb: +(gzipSync(content, { level: 9 }).length / 1024).toFixed(1) };
    });
    const gzipKb = +files.reduce((sum, file) => sum + file.gzipKb, 0).toFixed(1);

    await page.close();
    // The first start creates the database (PGlite's initdb leaves a high-water mark); every later
    // start opens an existing one, which is the figure a running installation sees.
    const firstStartRssMb = await idleRss(dataDir);
    await server.stop();
    server = await startServer({ dataDir });
    await fetch(`${server.baseUrl}/landing`);
    const restartedRssMb = await idleRss(dataDir);
    return {
      firstContentfulPaintMs: Math.round(fcp),
      jsBeforeFirstPaint: files,
      jsBeforeFirstPaintGzipKb: gzipKb,
      goalKb: 150,
      serverIdleRssMb: { firstStartOnNewDatabase: firstStartRssMb, afterRestart: restartedRssMb },
    };
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
