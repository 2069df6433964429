// `npm run bench`: every figure the issues ask for, printed and written to bench/results/latest.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { benchApiMe } from './api-me.bench';
import { benchFaceEngine } from './face-engine.bench';
import { benchLanding } from './landing.bench';
import { benchTemplates } from './templates.bench';
import { benchUpload } from './upload.bench';

const only = process.argv[2];
const benches: Record<string, () => Promise<unknown>> = { 'api-me': benchApiMe, landing: benchLanding, upload: benchUpload, templates: benchTemplates, 'face-engine': benchFaceEngine };
benches.extraction = () => import('./extraction.bench').then((bench) => bench.benchExtraction());
benches['voice-analysis'] = () => import('./voice-analysis.bench').then((bench) => bench.benchVoiceAnalysis());
benches.render = () => import('./render.bench').then((bench) => bench.benchRender());
benches['voice-conversion'] = () => import('./voice-conversion.bench').then((bench) => bench.benchVoiceConversion());
benches.voices = () => import('./voices.bench').then((bench) => bench.benchVoices());
benches.load = () => import('./load.bench').then((bench) => bench.benchLoad());

const results: Record<string, unknown> = {
  machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version },
  at: new Date().toISOString(),
};
for (const [name, bench] of Object.entries(benches)) {
  if (only && only !== name) continue;
  console.log(`\n== ${name}`);
  results[name] = await bench();
  console.log(JSON.stringify(results[name], null, 2));
}
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/latest.json', `${JSON.stringify(results, null, 2)}\n`);
console.log('\nwritten to bench/results/latest.json');
