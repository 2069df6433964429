import { describe, expect, it } from 'vitest';
import { matchesSearch, nextFocus, sortVideos, visibleVideos } from './saved-videos';

const video = (id: number, status: 'pending' | 'processing' | 'completed' | 'failed', createdAt: string, title = `Video ${id}`) => ({
  id,
  status,
  createdAt,
  title,
});

const videos = [
  video(12, 'completed', '2026-01-02T10:00:00Z', 'Counting with Grandma'),
  video(3, 'failed', '2026-01-05T10:00:00Z'),
  video(41, 'processing', '2026-01-01T10:00:00Z'),
  video(5, 'pending', '2026-01-04T10:00:00Z'),
];

describe('saved videos search', () => {
  it('matches the id as a substring', () => {
    expect(visibleVideos(videos, '1', 'newest').map((v) => v.id)).toEqual([12, 41]);
  });

  it('matches the status text case-insensitively', () => {
    expect(visibleVideos(videos, 'COMPLETED', 'newest').map((v) => v.id)).toEqual([12]);
    expect(visibleVideos(videos, 'Process', 'newest').map((v) => v.id)).toEqual([41]);
  });

  it('matches the video title too, and an empty search matches everything', () => {
    expect(matchesSearch(videos[0]!, 'grandma')).toBe(true);
    expect(visibleVideos(videos, '   ', 'newest')).toHaveLength(4);
    expect(visibleVideos(videos, 'nothing like this', 'newest')).toEqual([]);
  });
});

describe('saved videos sort', () => {
  it('orders newest first, oldest first, and by status (watchable first, failed last)', () => {
    expect(sortVideos(videos, 'newest').map((v) => v.id)).toEqual([3, 5, 12, 41]);
    expect(sortVideos(videos, 'oldest').map((v) => v.id)).toEqual([41, 12, 5, 3]);
    expect(sortVideos(videos, 'status').map((v) => v.status)).toEqual(['completed', 'processing', 'pending', 'failed']);
  });

  it('breaks ties on the same time by id, and leaves its input alone', () => {
    const same = [video(1, 'completed', '2026-01-01T00:00:00Z'), video(2, 'completed', '2026-01-01T00:00:00Z')];
    expect(sortVideos(same, 'newest').map((v) => v.id)).toEqual([2, 1]);
    expect(same.map((v) => v.id)).toEqual([1, 2]);
  });
});

describe('the focus after a delete', () => {
  const shown = [{ id: 7 }, { id: 4 }, { id: 9 }];

  it('goes to the next video, or the one before when the last was deleted', () => {
    expect(nextFocus(shown, 7)).toBe(4);
    expect(nextFocus(shown, 4)).toBe(9);
    expect(nextFocus(shown, 9)).toBe(4);
  });

  it('has no card to go to when the only video was deleted (the page heading takes it)', () => {
    expect(nextFocus([{ id: 7 }], 7)).toBeUndefined();
    expect(nextFocus(shown, 99)).toBeUndefined();
  });
});
