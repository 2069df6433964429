// SIGINT/SIGTERM → one orderly shutdown (a second signal while it runs is ignored; a stuck one is cut off).
const FORCE_EXIT_AFTER_MS = 60_000;

export function onShutdown(log: { info(message: string): void; error(obj: unknown, message: string): void }, shutdown: () => Promise<void>) {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, shutting down`);
    setTimeout(() => {
      log.info('shutdown took too long, exiting');
      process.exit(1);
    }, FORCE_EXIT_AFTER_MS).unref();
    shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
