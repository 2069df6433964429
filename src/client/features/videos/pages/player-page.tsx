import { PlaceholderPage } from '@client/components/placeholder-page';

/** /player/{videoId} (a processed video) and /preview/{templateId} (a template) share this screen. */
export default function PlayerPage(_props: { source: 'processedVideo' | 'template'; id: string }) {
  return <PlaceholderPage title="Video Player" />;
}
