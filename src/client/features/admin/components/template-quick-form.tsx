// The simple add/edit template form (spec 02 §5): every text field required, duration a whole number
// of seconds, price in dollars (steps of 0.01) shown for premium templates; un-ticking premium resets
// the price to 0. The same shared schema checks it here and on the server.
import { useState, type FormEvent } from 'react';
import type { VideoTemplate } from '@shared/api-types';
import {
  DEFAULT_AGE_RANGE,
  DEFAULT_CATEGORY,
  QUICK_FORM_AGE_RANGES,
  QUICK_FORM_CATEGORIES,
  templateCreateSchema,
  type TemplateCreateInput,
} from '@shared/template-rules';
import { Button } from '@client/components/ui/button';
import { TextField } from '@client/components/ui/form-field';
import { Spinner } from '@client/components/ui/spinner';
import { useCreateTemplate, useUpdateTemplate } from '../api/use-admin-templates';
import { fieldErrors } from './form-bits';
import { TemplateBasicFields, TemplateFlagFields } from './template-basic-fields';

interface Values {
  title: string;
  description: string;
  category: string;
  ageRange: string;
  duration: string;
  thumbnailUrl: string;
  videoUrl: string;
  featured: boolean;
  isPremium: boolean;
  price: string;
  voiceOnly: boolean;
}

function initialValues(template?: VideoTemplate): Values {
  return {
    title: template?.title ?? '',
    description: template?.description ?? '',
    category: template?.category ?? DEFAULT_CATEGORY,
    ageRange: template?.ageRange ?? DEFAULT_AGE_RANGE,
    duration: template ? String(template.duration) : '',
    thumbnailUrl: template?.thumbnailUrl ?? '',
    videoUrl: template?.videoUrl ?? '',
    featured: template?.featured ?? false,
    isPremium: template?.isPremium ?? false,
    price: template?.price != null ? template.price.toFixed(2) : '0',
    voiceOnly: template?.voiceOnly ?? false,
  };
}

export function TemplateQuickForm({ template, onDone }: { template?: VideoTemplate; onDone(): void }) {
  const [values, setValues] = useState<Values>(() => initialValues(template));
  // Checked again on every change once Create has been pressed, so no message outlives its cause.
  const [attempted, setAttempted] = useState(false);
  const create = useCreateTemplate();
  const update = useUpdateTemplate();
  const pending = create.isPending || update.isPending;
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((current) => ({ ...current, [key]: value }));
  const input: TemplateCreateInput = { ...values, price: values.isPremium ? values.price : null };
  const parsed = templateCreateSchema.safeParse(input);
  const errors: Record<string, string> = attempted && !parsed.success ? fieldErrors(parsed.error.issues) : {};

  async function submit(event: FormEvent) {
    event.preventDefault();
    setAttempted(true);
    if (!parsed.success) return;
    try {
      if (template) await update.mutateAsync({ id: template.id, changes: input });
      else await create.mutateAsync(input);
      onDone();
    } catch {
      // the mutation's toast has said why
    }
  }

  return (
    // The fields scroll and the buttons stay below them: with Premium's price and the messages, the form is
    // taller than its dialog on a 1280×800 screen, and Cancel and Create were cut off at the bottom.
    <form onSubmit={(event) => void submit(event)} noValidate className="flex min-h-0 flex-1 flex-col gap-4">
      <div className="-mx-6 -my-1 grid min-h-0 gap-4 overflow-y-auto px-6 py-1">
        <TemplateBasicFields
          values={values}
          errors={errors}
          onChange={set}
          categories={QUICK_FORM_CATEGORIES}
          ageRanges={QUICK_FORM_AGE_RANGES}
          durationMin={0}
          durationStep={1}
          durationInputMode="numeric"
        />
        <TextField label="Thumbnail URL" value={values.thumbnailUrl} error={errors.thumbnailUrl} onChange={(event) => set('thumbnailUrl', event.target.value)} />
        <TextField label="Video URL" value={values.videoUrl} error={errors.videoUrl} onChange={(event) => set('videoUrl', event.target.value)} />
        <TemplateFlagFields
          values={values}
          errors={errors}
          onChange={set}
          onPremiumChange={(checked) => setValues((current) => ({ ...current, isPremium: checked, price: checked ? current.price : '0' }))}
        />
      </div>
      <div className="-mx-6 flex justify-end gap-2 border-t px-6 pt-4">
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending && <Spinner className="size-4" />}
          {template ? 'Save Changes' : 'Create Template'}
        </Button>
      </div>
    </form>
  );
}
