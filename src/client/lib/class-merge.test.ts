// `cn` merges with tailwind-merge's configuration cut down to the client's classes
// (scripts/class-merge-config.ts). These check that the cut changes nothing for them.
import { readFileSync } from 'node:fs';
import { twMerge } from 'tailwind-merge';
import { describe, expect, it } from 'vitest';
import { CONFIG_FILE, classMergeConfigSource, clientClassWords } from '../../../scripts/class-merge-config';
import { cn } from './utils';

describe('the class merge', () => {
  it('is generated from the classes the client uses now (else run `npx tsx scripts/class-merge-config.ts`)', () => {
    expect(readFileSync(CONFIG_FILE, 'utf8')).toBe(classMergeConfigSource());
  });

  it('merges every pair of the client’s classes, both ways round, as the full tailwind-merge does', () => {
    const words = clientClassWords();
    expect(words.length).toBeGreaterThan(300);
    const differing: string[] = [];
    for (const first of words) {
      for (const second of words) {
        const pair = `${first} ${second}`;
        if (cn(pair) !== twMerge(pair)) differing.push(`${pair} → ${cn(pair)}, not ${twMerge(pair)}`);
      }
    }
    expect(differing).toEqual([]);
  });

  it('lets a later class override an earlier one of its group, with variants kept apart', () => {
    expect(cn('h-10 rounded-lg px-4 text-sm', 'h-12 rounded-xl px-6 text-base')).toBe('h-12 rounded-xl px-6 text-base');
    expect(cn('bg-primary hover:bg-primary/90', 'bg-card')).toBe('hover:bg-primary/90 bg-card');
    expect(cn('p-6 pt-0', 'p-4')).toBe('p-4');
    expect(cn('px-3', false, undefined, 'text-muted-foreground')).toBe('px-3 text-muted-foreground');
  });
});
