import { PlaceholderPage } from '@client/components/placeholder-page';

export default function AdminPage() {
  return <PlaceholderPage title="Admin Dashboard" />;
}
