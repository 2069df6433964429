// Add Face Video: upload a 10–30 s clip; the server extracts face images from it in the background, and
// the face images panel follows the video until its faces are in (features/faces/lib/use-face-collection.ts).
import { useQueryClient } from '@tanstack/react-query';
import { Upload } from 'lucide-react';
import { useState } from 'react';
import type { Person } from '@shared/api-types';
import { FACE_VIDEO_TYPES, MEDIA_MESSAGES } from '@shared/media-rules';
import { Button } from '@client/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@client/components/ui/dialog';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { toast } from '@client/components/ui/use-toast';
import { useConsentGate } from '@client/features/people/components/use-consent-gate';
import { VideoUploadField, uploadFailureDescription } from '@client/features/videos/components/video-upload';
import { createFaceVideo } from '../api/create-face-video';
import { personFaceVideosQueryKey } from '../api/use-person-face-videos';
import { uploadVideo } from '../api/upload-video';

interface AddFaceVideoDialogProps {
  person: Person;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function AddFaceVideoDialog({ person, open, onOpenChange }: AddFaceVideoDialogProps) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const consent = useConsentGate();

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
      // The new video is 'pending': the list polls it (and the face images) until its faces are extracted.
      void queryClient.invalidateQueries({ queryKey: personFaceVideosQueryKey(person.id) });
      setFile(null);
      onOpenChange(false);
    } catch (error) {
      if (consent.refused(error, person)) return;
      toast({ variant: 'destructive', title: 'Upload failed', description: uploadFailureDescription(error) });
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
        <VideoUploadField
          file={file}
          onFileChange={setFile}
          progress={progress}
          label="Choose a face video"
          types={FACE_VIDEO_TYPES}
          invalidTypeMessage={MEDIA_MESSAGES.invalidVideoType}
        />
        <DialogFooter>
          <Button type="button" variant="outline" disabled={uploading} onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="button" disabled={uploading} onClick={() => void upload()}>
            <Upload aria-hidden="true" /> {uploading ? 'Uploading…' : 'Upload Video'}
          </Button>
        </DialogFooter>
        {consent.dialog}
      </DialogContent>
    </Dialog>
  );
}
