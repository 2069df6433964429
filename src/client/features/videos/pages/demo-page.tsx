import { PlaceholderPage } from '@client/components/placeholder-page';

export default function DemoPage() {
  return <PlaceholderPage title="Baby Shark Demo" />;
}
