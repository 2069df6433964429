// Saving a finished video to the device (spec 02 §8, §9): the browser follows a short-lived signed link,
// and the server names the file with Content-Disposition; the anchor's `download` names it the same way.
// The page cannot see the browser's download finish, so it can only say that the download has started.
import { downloadFileName } from '@shared/video-rules';
import { createMediaLink } from '../api/media-link';

/** Starts the download and returns the file's name; undefined (after logging 'Error saving video') when no link could be had. */
export async function saveVideo(video: { id: number; title: string | null }): Promise<string | undefined> {
  try {
    const { url } = await createMediaLink(video.id, 'download');
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = downloadFileName(video.title);
    anchor.rel = 'noopener';
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
    return anchor.download;
  } catch (error) {
    console.error('Error saving video', error);
    return undefined;
  }
}

