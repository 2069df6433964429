// Whether the demo library is being made right now (a first start takes 20–30 s): while it is, the landing
// page and the library say so and look again, instead of 'No featured videos available.' (issue 20).
// Every web process makes the demo at its own first start (demo-templates.ts), so each knows of its own.
import type { Db } from '../../db/open';

const runs = new WeakMap<Db, number>();

export function demoLibraryPreparing(db: Db): boolean {
  return (runs.get(db) ?? 0) > 0;
}

/** Runs the making of the demo library; the library reads as being prepared until it ends, however it ends. */
export async function whilePreparingDemo<T>(db: Db, make: () => Promise<T>): Promise<T> {
  runs.set(db, (runs.get(db) ?? 0) + 1);
  try {
    return await make();
  } finally {
    runs.set(db, (runs.get(db) ?? 1) - 1);
  }
}
