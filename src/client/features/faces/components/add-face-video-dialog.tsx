// Add Face Video: upload a 10–30 s clip; the server extracts face images from it in the background.
import { useQueryClient } from '@tanstack/react-query';
import { FileVideo, Upload } from 'lucide-react';
import { useId, useState } from 'react';
import type { Person } from '@shared/api-types';
import { FACE_VIDEO_TYPES, MEDIA_LIMITS, MEDIA_MESSAGES } from '@shared/media-rules';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { Progress } from '@client/components/ui/progress';
import { ApiError } from '@client/lib/api';
import { notifyError, notifySuccess, splitMessage } from '@client/lib/notify';
import { toast } from '@client/components/ui/use-toast';
import { createFaceVideo } from '../api/create-face-video';
import { personFaceImagesQueryKey } from '../api/use-person-face-images';
import { userFaceImagesQueryKey } from '../api/use-user-face-images';
import { personFaceVideosQueryKey } from '../api/use-person-face-videos';
import { uploadVideo } from '../api/upload-video';

/** Faces are extracted in the background; look again after this long (spec 01 §4). */
const REFRESH_AFTER_UPLOAD_MS = 5000;

interface AddFaceVideoDialogProps {
  person: Person;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function AddFaceVideoDialog({ person, open, onOpenChange }: AddFaceVideoDialogProps) {
  const queryClient = useQueryClient();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);

  function choose(next: File | undefined) {
    if (!next) return;
    if (!(FACE_VIDEO_TYPES as readonly string[]).includes(next.type)) return notifyError(MEDIA_MESSAGES.invalidVideoType, 'Invalid file type');
    if (next.size > MEDIA_LIMITS.videoMaxBytes) return notifyError(MEDIA_MESSAGES.videoTooLarge, 'File too large');
    setFile(next);
  }

  async function upload() {
    if (!file) return notifyError(MEDIA_MESSAGES.noVideoSelected);
    setProgress(0);
    try {
      const uploaded = await uploadVideo({ file, personId: person.id, userId: person.userId }, setProgress);
      await createFaceVideo({
        userId: person.userId,
        personId: person.id,
        name: `${person.name} - ${file.name.replace(/\.[^.]+$/, '')}`,
        videoUrl: uploaded.videoUrl,
        expressionType: 'neutral',
      });
      notifySuccess(MEDIA_MESSAGES.uploadSucceeded);
      void queryClient.invalidateQueries({ queryKey: personFaceVideosQueryKey(person.id) });
      setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: personFaceImagesQueryKey(person.id) });
        void queryClient.invalidateQueries({ queryKey: userFaceImagesQueryKey(person.userId) });
      }, REFRESH_AFTER_UPLOAD_MS);
      setFile(null);
      onOpenChange(false);
    } catch (error) {
      // The spec's message, with the server's reason when it gave one (e.g. not really a video).
      const fallback = splitMessage(MEDIA_MESSAGES.uploadFailed, 'Upload failed');
      toast({
        variant: 'destructive',
        title: fallback.title,
        description: error instanceof ApiError && error.status > 0 ? error.message : fallback.description,
      });
    } finally {
      setProgress(null);
    }
  }

  const uploading = progress !== null;

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (uploading) return;
        if (!next) setFile(null);
        onOpenChange(next);
      }}
    >
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Add Face Video</DialogTitle>
          <DialogDescription>
            Upload a short video of {person.name} (10–30 seconds works best). We&apos;ll pick out the clearest face
            images from it.
          </DialogDescription>
        </DialogHeader>
        <label
          htmlFor={inputId}
          className="flex cursor-pointer flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed bg-muted/40 p-8 text-center transition-colors hover:border-primary/60 hover:bg-secondary/60 has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50"
        >
          <FileVideo className="size-8 text-primary" aria-hidden="true" />
          {file ? (
            <>
              <span className="max-w-full truncate font-semibold">{file.name}</span>
              <span className="text-sm text-muted-foreground">{formatMegabytes(file.size)} · click to choose another</span>
            </>
          ) : (
            <>
              <span className="font-semibold">Click to choose a video</span>
              <span className="text-sm text-muted-foreground">MP4, MOV, AVI or WebM, up to 100MB</span>
            </>
          )}
          <input
            id={inputId}
            type="file"
            accept={FACE_VIDEO_TYPES.join(',')}
            aria-label="Choose a face video"
            className="sr-only"
            disabled={uploading}
            onChange={(event) => {
              choose(event.target.files?.[0]);
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
        <DialogFooter>
          <Button type="button" variant="outline" disabled={uploading} onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="button" disabled={uploading} onClick={() => void upload()}>
            <Upload aria-hidden="true" /> {uploading ? 'Uploading…' : 'Upload Video'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
