// Landing page: the JavaScript the browser fetched before first paint (gzipped), and the server's idle RSS.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchBrowser } from '../e2e/harness';
import { rssMb, startServer } from './lib';

export async function benchLanding() {
  const server = await startServer();
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

    // Idle: after the page load, with nothing in flight for a while.
    await page.close();
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const serverPid = Number(readFileSync(path.join(server.dataDir, 'db.lock'), 'utf8'));
    return {
      firstContentfulPaintMs: Math.round(fcp),
      jsBeforeFirstPaint: files,
      jsBeforeFirstPaintGzipKb: gzipKb,
      goalKb: 150,
      serverIdleRssMb: rssMb(serverPid),
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}
