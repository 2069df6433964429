import { PlaceholderPage } from '@client/components/placeholder-page';

export default function AdminVideosPage() {
  return <PlaceholderPage title="Advanced Video Management" />;
}
