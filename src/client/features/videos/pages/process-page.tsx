import { PlaceholderPage } from '@client/components/placeholder-page';

/** /process/{templateId}: templateId is a template id or 'new' (from the Create Video button). */
export default function ProcessPage(_props: { templateId: string }) {
  return <PlaceholderPage title="Create Your Video" />;
}
