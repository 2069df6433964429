import { PlaceholderPage } from '@client/components/placeholder-page';

export default function UploadTestPage() {
  return <PlaceholderPage title="Video Upload Test" />;
}
