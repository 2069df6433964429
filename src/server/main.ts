// The app's process: read config, open the database (migrations run there), serve the API and the client.
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/open';
import { seedDemoAtFirstStart } from './features/templates/demo-templates';
import { createStorage } from './storage/storage';

const SESSION_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

async function main() {
  const config = loadConfig();
  const database = await openDatabase(config);
  const storage = createStorage(config.dataDir);
  const app = await buildApp({ config, db: database.db, storage });

  const pruneSessions = () => app.pruneSessions().catch((error) => app.log.warn({ err: error }, 'session prune failed'));
  void pruneSessions();
  const pruneTimer = setInterval(pruneSessions, SESSION_PRUNE_INTERVAL_MS);
  pruneTimer.unref();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal} received, shutting down`);
    clearInterval(pruneTimer);
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL in ${config.dataDir}/db`;
  app.log.info(`FamilyStar is ready on http://localhost:${config.port} using ${where}`);
  // A fresh installation gets the demo templates, made in the background while the app serves.
  seedDemoAtFirstStart({ db: database.db, storage, dataDir: config.dataDir, log: app.log }).catch((error: unknown) =>
    app.log.error({ err: error }, 'adding the demo templates failed'),
  );
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
