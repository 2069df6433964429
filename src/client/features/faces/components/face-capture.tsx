// Face capture (spec 01 §2): a photo from the camera (JPEG 0.95 at up to 1280x720) or an uploaded image.
import { Camera, ImageUp, RotateCcw } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { FACE_IMAGE_ACCEPT, MEDIA_LIMITS, MEDIA_MESSAGES } from '@shared/media-rules';
import { Button } from '@client/components/ui/button';
import { Spinner } from '@client/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@client/components/ui/tabs';
import { blobToDataUrl } from '@client/lib/media';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { useCamera } from '../lib/use-camera';

interface FaceCaptureProps {
  /** The chosen image as a data URL, or null. */
  value: string | null;
  onChange: (dataUrl: string | null) => void;
}

export function FaceCapture({ value, onChange }: FaceCaptureProps) {
  const [tab, setTab] = useState<'camera' | 'upload'>('camera');
  return (
    <Tabs
      value={tab}
      onValueChange={(next) => {
        setTab(next as 'camera' | 'upload');
        onChange(null);
      }}
    >
      <TabsList className="grid w-full grid-cols-2">
        <TabsTrigger value="camera">
          <Camera aria-hidden="true" /> Camera
        </TabsTrigger>
        <TabsTrigger value="upload">
          <ImageUp aria-hidden="true" /> Upload
        </TabsTrigger>
      </TabsList>
      <TabsContent value="camera">{tab === 'camera' && <CameraCapture value={value} onChange={onChange} />}</TabsContent>
      <TabsContent value="upload">
        <UploadCapture value={value} onChange={onChange} />
      </TabsContent>
    </Tabs>
  );
}

function CameraCapture({ value, onChange }: FaceCaptureProps) {
  const camera = useCamera();
  const { start, stop } = camera;

  useEffect(() => {
    if (!value) void start();
    else stop();
  }, [value, start, stop]);

  function capture() {
    const video = camera.videoRef.current;
    if (!video || !video.videoWidth) return;
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
    onChange(canvas.toDataURL('image/jpeg', MEDIA_LIMITS.cameraJpegQuality));
    notifySuccess('Image captured', 'Your photo is ready to save.');
  }

  return (
    <div className="grid gap-3">
      <div className="relative aspect-video overflow-hidden rounded-xl bg-foreground/90">
        {value ? (
          <img src={value} alt="Captured face" className="size-full object-cover" />
        ) : (
          <video
            ref={camera.videoRef}
            muted
            playsInline
            aria-label="Camera preview"
            className="size-full -scale-x-100 object-cover"
          />
        )}
        {camera.state === 'starting' && (
          <div className="absolute inset-0 flex items-center justify-center">
            <Spinner className="size-8 text-primary-foreground" label="Starting camera" />
          </div>
        )}
        {camera.state === 'error' && !value && (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 p-4 text-center text-sm text-primary-foreground">
            <p role="alert">{MEDIA_MESSAGES.cameraDenied}</p>
            <Button type="button" variant="secondary" size="sm" onClick={() => void start()}>
              Try Again
            </Button>
          </div>
        )}
        {!value && camera.state === 'on' && (
          <div aria-hidden="true" className="pointer-events-none absolute inset-[12%_30%] rounded-[50%] border-2 border-dashed border-white/70" />
        )}
      </div>
      {value ? (
        <Button type="button" variant="outline" onClick={() => onChange(null)}>
          <RotateCcw aria-hidden="true" /> Retake
        </Button>
      ) : (
        <Button type="button" onClick={capture} disabled={camera.state !== 'on'}>
          <Camera aria-hidden="true" /> Capture Photo
        </Button>
      )}
    </div>
  );
}

/**
 * True when the browser can draw the file as a picture. The type comes from the file's name, so a text
 * file named .jpg passes the type check and showed 'ready to save' over a broken preview.
 */
async function decodes(file: File): Promise<boolean> {
  try {
    const bitmap = await createImageBitmap(file);
    bitmap.close();
    return true;
  } catch {
    return false;
  }
}

function UploadCapture({ value, onChange }: FaceCaptureProps) {
  const inputId = useId();

  async function choose(file: File | undefined) {
    if (!file) return;
    if (!file.type.startsWith('image/')) return notifyError(MEDIA_MESSAGES.invalidImageType);
    if (file.size > MEDIA_LIMITS.imageMaxBytes) return notifyError(MEDIA_MESSAGES.imageTooLarge);
    if (!(await decodes(file))) return notifyError(MEDIA_MESSAGES.invalidImageType);
    onChange(await blobToDataUrl(file));
    notifySuccess('Image uploaded', 'Your photo is ready to save.');
  }

  return (
    <div className="grid gap-3">
      {value ? (
        <div className="grid gap-3">
          <img src={value} alt="Uploaded face" className="aspect-video w-full rounded-xl bg-muted object-contain" />
          <Button type="button" variant="outline" onClick={() => onChange(null)}>
            <RotateCcw aria-hidden="true" /> Choose Another
          </Button>
        </div>
      ) : (
        // min-h-0: with the default minimum, the 16:9 ratio sized the box from its wrapped text and made it (and
        // the dialog's header) wider than a phone's screen.
        <label
          htmlFor={inputId}
          className="flex aspect-video min-h-0 cursor-pointer flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed bg-muted/40 p-6 text-center transition-colors hover:border-primary/60 hover:bg-secondary/60 has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50"
        >
          <ImageUp className="size-8 text-primary" aria-hidden="true" />
          <span className="font-semibold">Click to upload a photo</span>
          <span className="text-sm text-muted-foreground">PNG, JPG or WEBP (max 5MB)</span>
          <input
            id={inputId}
            type="file"
            accept={FACE_IMAGE_ACCEPT}
            aria-label="Upload a face photo"
            className="sr-only"
            onChange={(event) => {
              void choose(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
        </label>
      )}
    </div>
  );
}
