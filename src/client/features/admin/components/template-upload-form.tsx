// The template upload form (spec 02 §5; decisions page: price in dollars). The video is checked here
// for type and size, its duration read for the field, and the server measures it again with ffprobe.
// A thumbnail is optional: the server takes a frame of the video when none is given.
import { useRef, useState, type FormEvent } from 'react';
import {
  DEFAULT_AGE_RANGE,
  TEMPLATE_IMAGE_ACCEPT,
  TEMPLATE_LIMITS,
  TEMPLATE_MESSAGES,
  TEMPLATE_VIDEO_ACCEPT,
  UPLOAD_FORM_AGE_RANGES,
  UPLOAD_FORM_CATEGORIES,
  templateUploadFieldsSchema,
} from '@shared/template-rules';
import { Button } from '@client/components/ui/button';
import { FieldError } from '@client/components/ui/form-field';
import { Label } from '@client/components/ui/label';
import { Progress } from '@client/components/ui/progress';
import { toast } from '@client/components/ui/use-toast';
import { useUploadTemplate } from '../api/use-admin-templates';
import { fieldErrors } from './form-bits';
import { TemplateBasicFields, TemplateFlagFields } from './template-basic-fields';

const VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'];
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

const EMPTY = {
  title: '',
  description: '',
  category: UPLOAD_FORM_CATEGORIES[0] as string,
  ageRange: DEFAULT_AGE_RANGE as string,
  duration: '',
  featured: false,
  isPremium: false,
  price: '',
  voiceOnly: false,
};

/** The duration the browser reads from a chosen file (seconds, rounded), or undefined. */
function readDuration(file: File): Promise<number | undefined> {
  return new Promise((resolve) => {
    const video = document.createElement('video');
    const url = URL.createObjectURL(file);
    const done = (value: number | undefined) => {
      URL.revokeObjectURL(url);
      resolve(value);
    };
    video.preload = 'metadata';
    video.onloadedmetadata = () => done(Number.isFinite(video.duration) ? Math.max(1, Math.round(video.duration)) : undefined);
    video.onerror = () => done(undefined);
    video.src = url;
  });
}

export function TemplateUploadForm({ onUploaded }: { onUploaded?(): void }) {
  const [values, setValues] = useState(EMPTY);
  const [video, setVideo] = useState<File>();
  const [thumbnail, setThumbnail] = useState<File>();
  // The files' problems are found when they are chosen; the fields' are checked again on every change once
  // Upload has been pressed, so no message outlives its cause.
  const [fileErrors, setErrors] = useState<Record<string, string>>({});
  const [attempted, setAttempted] = useState(false);
  const [progress, setProgress] = useState(0);
  const upload = useUploadTemplate(setProgress);
  const formRef = useRef<HTMLFormElement>(null);
  const set = <K extends keyof typeof EMPTY>(key: K, value: (typeof EMPTY)[K]) => setValues((current) => ({ ...current, [key]: value }));

  async function chooseVideo(file: File | undefined) {
    setVideo(undefined);
    if (!file) return;
    if (!VIDEO_TYPES.includes(file.type)) {
      toast({ variant: 'destructive', title: TEMPLATE_MESSAGES.invalidVideoType, description: 'Please choose an MP4, WebM or MOV video.' });
      setErrors((current) => ({ ...current, video: TEMPLATE_MESSAGES.invalidVideoTypeDetail }));
      return;
    }
    if (file.size > TEMPLATE_LIMITS.videoMaxBytes) {
      toast({ variant: 'destructive', title: TEMPLATE_MESSAGES.videoTooLarge, description: TEMPLATE_MESSAGES.videoTooLargeDetail });
      setErrors((current) => ({ ...current, video: TEMPLATE_MESSAGES.videoTooLargeDetail }));
      return;
    }
    setErrors(({ video: _video, ...rest }) => rest);
    setVideo(file);
    const seconds = await readDuration(file);
    if (seconds) set('duration', String(seconds));
  }

  function chooseThumbnail(file: File | undefined) {
    setThumbnail(undefined);
    if (!file) return;
    if (!IMAGE_TYPES.includes(file.type)) {
      setErrors((current) => ({ ...current, thumbnail: TEMPLATE_MESSAGES.invalidThumbnail }));
      return;
    }
    if (file.size > TEMPLATE_LIMITS.thumbnailMaxBytes) {
      setErrors((current) => ({ ...current, thumbnail: TEMPLATE_MESSAGES.thumbnailTooLarge }));
      return;
    }
    setErrors(({ thumbnail: _thumbnail, ...rest }) => rest);
    setThumbnail(file);
  }

  const fields = { ...values, price: values.isPremium ? values.price : '', duration: values.duration || undefined };
  const parsed = templateUploadFieldsSchema.safeParse(fields);
  const errors: Record<string, string> = {
    ...(attempted && !parsed.success ? fieldErrors(parsed.error.issues) : {}),
    ...(attempted && !video && !fileErrors.video ? { video: TEMPLATE_MESSAGES.missingVideo } : {}),
    ...fileErrors,
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setAttempted(true);
    if (!video) toast({ variant: 'destructive', title: TEMPLATE_MESSAGES.missingVideo, description: TEMPLATE_MESSAGES.noFileSelected });
    if (!parsed.success || !video || Object.keys(fileErrors).length > 0) return;

    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== '') form.append(key, String(value));
    form.append('video', video);
    if (thumbnail) form.append('thumbnail', thumbnail);
    setProgress(0);
    try {
      await upload.mutateAsync(form);
      setAttempted(false);
      setValues(EMPTY);
      setVideo(undefined);
      setThumbnail(undefined);
      formRef.current?.reset();
      onUploaded?.();
    } catch {
      // the mutation's toast has said why
    }
  }

  return (
    <form ref={formRef} onSubmit={(event) => void submit(event)} noValidate className="grid gap-4">
      <TemplateBasicFields
        values={values}
        errors={errors}
        onChange={set}
        categories={UPLOAD_FORM_CATEGORIES}
        ageRanges={UPLOAD_FORM_AGE_RANGES}
        durationMin={1}
        durationHint="Read from the video; the server measures it again."
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid min-w-0 content-start gap-2">
          <Label htmlFor="template-video">Video file</Label>
          <input
            id="template-video"
            type="file"
            accept={TEMPLATE_VIDEO_ACCEPT}
            aria-invalid={errors.video ? true : undefined}
            aria-describedby="template-video-hint template-video-error"
            onChange={(event) => void chooseVideo(event.target.files?.[0])}
            className="w-full min-w-0 text-sm file:mr-3 file:rounded-md file:border-0 file:bg-secondary file:px-3 file:py-1.5 file:font-medium"
          />
          <p id="template-video-hint" className="text-xs text-muted-foreground">MP4, WebM or MOV, at most 100MB.</p>
          <FieldError id="template-video-error" message={errors.video} />
        </div>
        <div className="grid min-w-0 content-start gap-2">
          <Label htmlFor="template-thumbnail">Thumbnail (optional)</Label>
          <input
            id="template-thumbnail"
            type="file"
            accept={TEMPLATE_IMAGE_ACCEPT}
            aria-invalid={errors.thumbnail ? true : undefined}
            aria-describedby="template-thumbnail-hint template-thumbnail-error"
            onChange={(event) => chooseThumbnail(event.target.files?.[0])}
            className="w-full min-w-0 text-sm file:mr-3 file:rounded-md file:border-0 file:bg-secondary file:px-3 file:py-1.5 file:font-medium"
          />
          <p id="template-thumbnail-hint" className="text-xs text-muted-foreground">
            JPEG, PNG or WebP, at most 10MB. Left empty, a frame of the video is used.
          </p>
          <FieldError id="template-thumbnail-error" message={errors.thumbnail} />
        </div>
      </div>
      <TemplateFlagFields values={values} errors={errors} onChange={set} />
      {upload.isPending && <Progress value={progress} aria-label="Upload progress" />}
      <div className="flex justify-end">
        <Button type="submit" disabled={upload.isPending}>
          {upload.isPending ? `Uploading ${progress}%` : 'Upload Template'}
        </Button>
      </div>
    </form>
  );
}
