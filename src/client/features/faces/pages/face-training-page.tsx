import { PlaceholderPage } from '@client/components/placeholder-page';

/** The router only lets a numeric personId through. */
export default function FaceTrainingPage(_props: { personId: number }) {
  return <PlaceholderPage title="Face Training" />;
}
