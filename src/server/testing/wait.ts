// Polling for tests of background work: read a value until it satisfies `done`, or fail with the last one.
export async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean = Boolean, timeoutMs = 90_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms; last value: ${JSON.stringify(value)?.slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
