// The Saved Videos list's search and sort (spec 02 §2 Saved Videos), and where the focus goes after a
// delete, kept pure so they can be tested.
import type { ProcessedVideo } from '@shared/api-types';

export type SavedVideosSort = 'newest' | 'oldest' | 'status';

export const SORT_OPTIONS: { value: SavedVideosSort; label: string }[] = [
  { value: 'newest', label: 'Newest First' },
  { value: 'oldest', label: 'Oldest First' },
  { value: 'status', label: 'By Status' },
];

/** 'By Status': what can be watched first, then what is on its way, then what failed. */
const STATUS_ORDER: Record<ProcessedVideo['status'], number> = { completed: 0, processing: 1, pending: 2, failed: 3 };

/**
 * The spec's search: the id as a substring, or the status text, case-insensitively. The video's own
 * title matches too, since that is what a parent types.
 */
export function matchesSearch(video: Pick<ProcessedVideo, 'id' | 'status' | 'title'>, search: string): boolean {
  const query = search.trim().toLowerCase();
  if (!query) return true;
  return String(video.id).includes(query) || video.status.includes(query) || video.title.toLowerCase().includes(query);
}

function newestFirst(a: Pick<ProcessedVideo, 'id' | 'createdAt'>, b: Pick<ProcessedVideo, 'id' | 'createdAt'>): number {
  return Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id;
}

export function sortVideos<T extends Pick<ProcessedVideo, 'id' | 'status' | 'createdAt'>>(videos: readonly T[], sort: SavedVideosSort): T[] {
  const sorted = [...videos];
  if (sort === 'newest') return sorted.sort(newestFirst);
  if (sort === 'oldest') return sorted.sort((a, b) => newestFirst(b, a));
  return sorted.sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || newestFirst(a, b));
}

export function visibleVideos<T extends Pick<ProcessedVideo, 'id' | 'status' | 'title' | 'createdAt'>>(
  videos: readonly T[],
  search: string,
  sort: SavedVideosSort,
): T[] {
  return sortVideos(
    videos.filter((video) => matchesSearch(video, search)),
    sort,
  );
}

/** The card that takes the focus once a video is deleted: the one after it, else the one before; undefined when none is left. */
export function nextFocus(shown: readonly Pick<ProcessedVideo, 'id'>[], deletedId: number): number | undefined {
  const index = shown.findIndex((video) => video.id === deletedId);
  if (index < 0) return undefined;
  return (shown[index + 1] ?? shown[index - 1])?.id;
}
