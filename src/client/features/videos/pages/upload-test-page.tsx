// Video upload test (spec 02 §2): upload a clip for one of the user's people through the real upload
// route, with the guidelines beside it and a panel showing what came back. A person without a consent is
// asked for it first, as everywhere a face is added.
import { CircleCheck, CircleX, Upload, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { MEDIA_LIMITS, MEDIA_MESSAGES, VIDEO_TYPE_NAMES, VIDEO_UPLOAD_TYPES } from '@shared/media-rules';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Skeleton } from '@client/components/ui/skeleton';
import { toast } from '@client/components/ui/use-toast';
import { notifyError, notifySuccess } from '@client/lib/notify';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { useCurrentUser } from '@client/features/auth/api/use-current-user';
import { uploadVideo } from '@client/features/faces/api/upload-video';
import { usePeople } from '@client/features/people/api/use-people';
import { PersonSelect } from '@client/features/people/components/person-select';
import { useConsentGate } from '@client/features/people/components/use-consent-gate';
import { VideoUploadField, formatFileSize, uploadFailureDescription } from '../components/video-upload';

type UploadResult =
  | { ok: true; videoUrl: string; fileName: string; size: number; personName: string }
  | { ok: false; fileName: string; message: string };

const GUIDELINES = [
  `Formats: ${VIDEO_UPLOAD_TYPES.map((type) => VIDEO_TYPE_NAMES[type]).join(', ')}`,
  `Maximum size: ${Math.round(MEDIA_LIMITS.videoMaxBytes / (1024 * 1024))} MB`,
  'Recommended length: 10-30 seconds',
  'Good, even light on the face',
  'Face centred and looking at the camera',
];

export default function UploadTestPage() {
  useDocumentTitle('Video Upload Test');
  const { user } = useCurrentUser();
  const people = usePeople(user?.id);
  const [personId, setPersonId] = useState<number | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<UploadResult | null>(null);
  const consent = useConsentGate();

  const list = people.data ?? [];
  const person = list.find((candidate) => candidate.id === personId) ?? list[0] ?? null;
  const uploading = progress !== null;

  async function upload() {
    if (!file) return notifyError(MEDIA_MESSAGES.noFileSelected);
    if (!person) return;
    setProgress(0);
    setResult(null);
    try {
      const uploaded = await uploadVideo({ file, personId: person.id, userId: person.userId }, setProgress);
      setResult({ ok: true, videoUrl: uploaded.videoUrl, fileName: file.name, size: file.size, personName: person.name });
      notifySuccess(MEDIA_MESSAGES.uploadSucceeded);
      setFile(null);
    } catch (error) {
      if (consent.refused(error, person)) return;
      const message = uploadFailureDescription(error);
      setResult({ ok: false, fileName: file.name, message });
      toast({ variant: 'destructive', title: 'Upload failed', description: message });
    } finally {
      setProgress(null);
    }
  }

  return (
    <div className="container-page py-8 md:py-10">
      <h1 className="text-3xl font-bold tracking-tight">Video Upload Test</h1>
      <p className="mt-1 max-w-xl text-muted-foreground">
        Try an upload end to end: choose a person and a short face video, and see what the server sends back.
      </p>

      <div className="mt-8 grid items-start gap-6 lg:grid-cols-[1fr_20rem]">
        <Card>
          <CardHeader>
            <CardTitle>Upload a video</CardTitle>
            <CardDescription>The video is stored for the chosen person.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-6">
            {people.isLoading ? (
              <Skeleton className="h-10 w-full" />
            ) : list.length === 0 ? (
              <Alert>
                <AlertTitle>No people yet</AlertTitle>
                <AlertDescription>
                  <p>Add a person first; every uploaded video belongs to one of your people.</p>
                  <Button className="mt-3" size="sm" asChild>
                    <Link href="/people">
                      <UserPlus aria-hidden="true" /> Go to People
                    </Link>
                  </Button>
                </AlertDescription>
              </Alert>
            ) : (
              <>
                <PersonSelect label="Person" people={list} value={person?.id} disabled={uploading} onChange={setPersonId} />
                <VideoUploadField file={file} onFileChange={setFile} progress={progress} label="Choose a video" />
                <div>
                  <Button
                    type="button"
                    disabled={uploading}
                    onClick={() => (file && person ? consent.ask(person, () => void upload()) : void upload())}
                  >
                    <Upload aria-hidden="true" /> {uploading ? 'Uploading…' : 'Upload Video'}
                  </Button>
                </div>
              </>
            )}
          </CardContent>
        </Card>

        <Card role="region" aria-labelledby="guidelines-title">
          <CardHeader>
            <CardTitle id="guidelines-title">Guidelines</CardTitle>
            <CardDescription>For the clearest face images.</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="grid list-disc gap-2 pl-5 text-sm">
              {GUIDELINES.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>

      {result && <ResultPanel result={result} />}
      {consent.dialog}
    </div>
  );
}

function ResultPanel({ result }: { result: UploadResult }) {
  return (
    <Card className="mt-6" role="region" aria-labelledby="upload-result-title">
      <CardHeader>
        <CardTitle id="upload-result-title" className="flex items-center gap-2">
          {result.ok ? (
            <CircleCheck className="size-5 text-primary" aria-hidden="true" />
          ) : (
            <CircleX className="size-5 text-destructive" aria-hidden="true" />
          )}
          Upload result
        </CardTitle>
        <CardDescription>{result.ok ? 'Upload successful' : 'Upload failed'}</CardDescription>
      </CardHeader>
      <CardContent>
        {result.ok ? (
          <div className="grid gap-4 md:grid-cols-[minmax(0,28rem)_1fr]">
            <video controls src={result.videoUrl} aria-label="Uploaded video" className="w-full rounded-lg bg-black" />
            <dl className="grid content-start gap-3 text-sm">
              <div>
                <dt className="text-muted-foreground">File</dt>
                <dd className="font-medium break-all">{result.fileName}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Person</dt>
                <dd className="font-medium">{result.personName}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Size</dt>
                <dd className="font-medium tabular-nums">{formatFileSize(result.size)}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">URL</dt>
                <dd className="font-mono text-xs break-all">{result.videoUrl}</dd>
              </div>
            </dl>
          </div>
        ) : (
          <Alert variant="destructive">
            <AlertTitle>{result.fileName} was not uploaded</AlertTitle>
            <AlertDescription>{result.message}</AlertDescription>
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}
