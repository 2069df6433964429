import { PlaceholderPage } from '@client/components/placeholder-page';

/** The router only lets a numeric personId (or none) through. */
export default function VoiceTrainingPage(_props: { personId?: number }) {
  return <PlaceholderPage title="Voice Training" />;
}
