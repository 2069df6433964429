// `npm run seed:demo`: adds the demo templates that are missing from the library (see
// src/server/features/templates/demo-templates.ts). Stop the app first in embedded mode: the
// embedded database is opened by one process at a time.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/open';
import { findDemoTools, seedDemoTemplates } from '../src/server/features/templates/demo-templates';
import { closeSpeech } from '../src/server/media/speech';
import { createStorage } from '../src/server/storage/storage';

const tools = findDemoTools();
if ('missing' in tools) {
  console.error(`Cannot make the demo templates. Missing: ${tools.missing.join('; ')}`);
  console.error('All of it comes with the repository and npm install: run npm install (or fix DEMO_PORTRAIT / DEMO_FONT).');
  process.exit(1);
}
const config = loadConfig();
const database = await openDatabase(config);
try {
  const started = Date.now();
  const result = await seedDemoTemplates(database.db, createStorage(config.dataDir), tools);
  writeFileSync(path.join(config.dataDir, 'demo-templates.done'), `${new Date().toISOString()} ${result.created.join(', ')}\n`);
  console.log(`Added: ${result.created.join(', ') || 'none'}. Already there: ${result.skipped.join(', ') || 'none'}.`);
  console.log(`Took ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await closeSpeech();
  await database.close();
}
