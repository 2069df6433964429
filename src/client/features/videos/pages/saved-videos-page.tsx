import { PlaceholderPage } from '@client/components/placeholder-page';

export default function SavedVideosPage() {
  return <PlaceholderPage title="My Saved Videos" />;
}
