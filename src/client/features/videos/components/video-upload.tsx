// The video upload field (spec 02 §5): a file picker that refuses a wrong type or a too-large file with
// the spec's toasts before anything is sent, shows the chosen file, and the progress of its upload.
// The caller owns the file, the upload and its progress, so a dialog or a page can put its own buttons
// around it.
import { FileVideo } from 'lucide-react';
import { useId } from 'react';
import { MEDIA_LIMITS, MEDIA_MESSAGES, VIDEO_TYPE_NAMES, VIDEO_UPLOAD_TYPES, maxFileSizeMessage } from '@shared/media-rules';
import { Progress } from '@client/components/ui/progress';
import { ApiError } from '@client/lib/api';
import { notifyError } from '@client/lib/notify';

interface VideoUploadFieldProps {
  file: File | null;
  onFileChange: (file: File) => void;
  /** Upload progress 0–100 while uploading, null otherwise (the field is then enabled). */
  progress: number | null;
  /** Accessible name of the file input, e.g. 'Choose a face video'. */
  label: string;
  /** MIME types accepted; MP4, MOV and AVI unless told. */
  types?: readonly string[];
  maxBytes?: number;
  /** The description of the 'Invalid file type' toast. */
  invalidTypeMessage?: string;
}

/** '12.3 MB', or '85 KB' under a megabyte (a short test clip would read '0.0 MB'). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** 'MP4, MOV or AVI' */
function typeNames(types: readonly string[]): string {
  const names = types.map((type) => VIDEO_TYPE_NAMES[type] ?? type);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? '');
}

/**
 * What a failed upload toast should say under 'Upload failed': the server's reason when it gave one
 * (e.g. not really a video), else the spec's 'There was a problem uploading the video'.
 */
export function uploadFailureDescription(error: unknown): string {
  if (error instanceof ApiError && error.status > 0) return error.message;
  return MEDIA_MESSAGES.uploadFailed.slice(MEDIA_MESSAGES.uploadFailed.indexOf(': ') + 2);
}

export function VideoUploadField({
  file,
  onFileChange,
  progress,
  label,
  types = VIDEO_UPLOAD_TYPES,
  maxBytes = MEDIA_LIMITS.videoMaxBytes,
  invalidTypeMessage = MEDIA_MESSAGES.videoUploadInvalidType,
}: VideoUploadFieldProps) {
  const inputId = useId();
  const uploading = progress !== null;

  function choose(next: File | undefined) {
    if (!next) return;
    if (!types.includes(next.type)) return notifyError(invalidTypeMessage, 'Invalid file type');
    if (next.size > maxBytes) return notifyError(maxFileSizeMessage(maxBytes), 'File too large');
    onFileChange(next);
  }

  return (
    <div className="grid gap-4">
      <label
        htmlFor={inputId}
        className="flex cursor-pointer flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed bg-muted/40 p-8 text-center transition-colors hover:border-primary/60 hover:bg-secondary/60 has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50 has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60"
      >
        <FileVideo className="size-8 text-primary" aria-hidden="true" />
        {file ? (
          <>
            <span className="max-w-full truncate font-semibold">{file.name}</span>
            <span className="text-sm text-muted-foreground">{formatFileSize(file.size)} · click to choose another</span>
          </>
        ) : (
          <>
            <span className="font-semibold">Click to choose a video</span>
            <span className="text-sm text-muted-foreground">
              {typeNames(types)}, up to {Math.round(maxBytes / (1024 * 1024))}MB
            </span>
          </>
        )}
        <input
          id={inputId}
          type="file"
          accept={types.join(',')}
          aria-label={label}
          className="sr-only"
          disabled={uploading}
          onChange={(event) => {
            choose(event.target.files?.[0]);
            // Choosing the same file again after a refusal should still be checked.
            event.target.value = '';
          }}
        />
      </label>
      {uploading && (
        <div className="grid gap-2">
          <div className="flex justify-between text-sm">
            <span>Uploading…</span>
            <span className="tabular-nums">{progress}%</span>
          </div>
          <Progress value={progress} aria-label="Upload progress" />
        </div>
      )}
    </div>
  );
}
