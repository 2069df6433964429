// The admin's template list: edit in the quick form, delete with a confirmation, add new ones.
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { NARRATION_MESSAGES } from '@shared/voice-analysis';
import type { VideoTemplate } from '@shared/api-types';
import { formatPrice } from '@shared/prices';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { ConfirmDeleteDialog } from '@client/components/ui/confirm-dialog';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { Skeleton } from '@client/components/ui/skeleton';
import { formatDuration } from '@client/lib/utils';
import { TemplateThumbnail } from '@client/features/templates/components/template-thumbnail';
import { capitalise } from '@client/features/templates/lib/library-filters';
import { useAdminTemplates, useDeleteTemplate } from '../api/use-admin-templates';
import { TemplateQuickForm } from './template-quick-form';

export function TemplateList({ showAddButton = true }: { showAddButton?: boolean }) {
  const { data: templates, isLoading, error } = useAdminTemplates();
  const [editing, setEditing] = useState<VideoTemplate | 'new'>();
  const [deleting, setDeleting] = useState<VideoTemplate>();
  const remove = useDeleteTemplate();

  return (
    <div className="grid gap-4">
      {showAddButton && (
        <div className="flex justify-end">
          <Button onClick={() => setEditing('new')}>
            <Plus aria-hidden="true" />
            Add Template
          </Button>
        </div>
      )}
      {error && <p className="text-destructive">{error.message}</p>}
      <ul className="grid gap-3" aria-label="Templates">
        {isLoading && [0, 1, 2].map((row) => <Skeleton key={row} className="h-20" />)}
        {templates?.length === 0 && <li className="text-muted-foreground">No templates yet. Upload one to start the library.</li>}
        {templates?.map((template) => (
          <li key={template.id} className="flex items-center gap-4 rounded-2xl border bg-card p-3" data-testid="admin-template-row">
            <span className="hidden aspect-video w-28 shrink-0 overflow-hidden rounded-lg bg-muted sm:block">
              <TemplateThumbnail src={template.thumbnailUrl} />
            </span>
            <div className="min-w-0 flex-1">
              <div className="truncate font-medium">{template.title}</div>
              <div className="mt-1 flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                <Badge variant="secondary">{capitalise(template.category)}</Badge>
                <span>{template.ageRange} years</span>
                <span>{formatDuration(template.duration)}</span>
                {template.featured && <Badge variant="outline">Featured</Badge>}
                {template.voiceOnly && <Badge variant="outline">Voice only</Badge>}
                {template.narration && (
                  <span className={template.narration.pitchMedianHz === null ? 'text-destructive' : undefined}>
                    {template.narration.pitchMedianHz === null ? NARRATION_MESSAGES.noVoice : `Narrator ${Math.round(template.narration.pitchMedianHz)} Hz`}
                  </span>
                )}
                {template.isPremium && <Badge>Premium {template.price !== null && formatPrice(template.price)}</Badge>}
              </div>
            </div>
            <Button variant="ghost" size="icon" aria-label={`Edit ${template.title}`} onClick={() => setEditing(template)}>
              <Pencil aria-hidden="true" />
            </Button>
            <Button variant="ghost" size="icon" aria-label={`Delete ${template.title}`} onClick={() => setDeleting(template)}>
              <Trash2 aria-hidden="true" className="text-destructive" />
            </Button>
          </li>
        ))}
      </ul>

      <Dialog open={editing !== undefined} onOpenChange={(open) => !open && setEditing(undefined)}>
        {/* A column: the form inside scrolls its fields and keeps its buttons in sight. */}
        <DialogContent className="flex max-h-[90vh] flex-col overflow-hidden sm:max-w-2xl">
          <DialogHeader>
            <DialogTitle>{editing === 'new' ? 'Add Template' : 'Edit Template'}</DialogTitle>
            <DialogDescription>Prices are in dollars. Upload a video from the upload form to store it here.</DialogDescription>
          </DialogHeader>
          {editing !== undefined && (
            <TemplateQuickForm template={editing === 'new' ? undefined : editing} onDone={() => setEditing(undefined)} />
          )}
        </DialogContent>
      </Dialog>

      {/* A template that videos or purchases use is refused: the dialog stays open with the toast, for Cancel. */}
      <ConfirmDeleteDialog
        open={deleting !== undefined}
        title="Delete Template"
        question={`Delete "${deleting?.title}" and its files? Templates that videos or purchases use cannot be deleted.`}
        confirmLabel="Delete"
        pending={remove.isPending}
        onCancel={() => setDeleting(undefined)}
        onConfirm={() => deleting && remove.mutate(deleting, { onSuccess: () => setDeleting(undefined) })}
      />
    </div>
  );
}
