import { PlaceholderPage } from '@client/components/placeholder-page';

export default function LibraryPage() {
  return <PlaceholderPage title="Video Library" />;
}
