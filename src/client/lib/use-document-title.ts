import { useEffect } from 'react';

const APP_NAME = 'FamilyStar';

/** Sets the tab title to "{title} · FamilyStar" while the page is shown. */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : `${APP_NAME}: Educational Videos Starring You`;
  }, [title]);
}
