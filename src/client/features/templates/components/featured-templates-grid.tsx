import { useDemoLibraryPreparing } from '../api/use-demo-status';
import { useFeaturedTemplates } from '../api/use-featured-templates';
import { FeaturedTemplatesView } from './featured-templates-view';

/** The featured templates on Home, read with the query library (the admin's changes refresh them there). */
export function FeaturedTemplatesGrid() {
  const { data: templates, isLoading, isError } = useFeaturedTemplates();
  const preparing = useDemoLibraryPreparing(templates?.length === 0);
  return <FeaturedTemplatesView templates={templates} isLoading={isLoading} isError={isError} preparing={preparing} />;
}
