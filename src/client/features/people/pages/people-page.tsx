import { PlaceholderPage } from '@client/components/placeholder-page';

export default function PeoplePage() {
  return <PlaceholderPage title="People" />;
}
