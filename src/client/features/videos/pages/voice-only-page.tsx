import { PlaceholderPage } from '@client/components/placeholder-page';

export default function VoiceOnlyPage() {
  return <PlaceholderPage title="Voice-Only Video Processor" />;
}
