import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/** Joins class names and lets later Tailwind utilities override earlier ones. */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

/** Avatar initials: the first two letters of the username in upper case, or '?' when there is none. */
export function initials(username: string | null | undefined): string {
  const letters = (username ?? '').trim().slice(0, 2).toUpperCase();
  return letters || '?';
}

/** A duration in seconds as minutes:seconds, e.g. 95 → "1:35". */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
