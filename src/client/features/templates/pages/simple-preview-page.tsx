import { PlaceholderPage } from '@client/components/placeholder-page';

export default function SimplePreviewPage() {
  return <PlaceholderPage title="Video Preview" />;
}
