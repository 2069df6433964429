// The front camera as a live stream for a <video> preview, released on stop and unmount.
import { useCallback, useEffect, useRef, useState } from 'react';
import { MEDIA_LIMITS } from '@shared/media-rules';
import { stopStream } from '@client/lib/media';

export type CameraState = 'off' | 'starting' | 'on' | 'error';

/**
 * `state` 'error' means the camera could not be opened (refused or missing): callers say so where the
 * preview was, with a way to try again; a toast would repeat it over their dialog.
 */
export function useCamera() {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [state, setState] = useState<CameraState>('off');
  const streamRef = useRef<MediaStream | null>(null);

  const stop = useCallback(() => {
    stopStream(streamRef.current);
    streamRef.current = null;
    setStream(null);
    setState('off');
  }, []);

  const start = useCallback(async () => {
    if (streamRef.current) return;
    setState('starting');
    try {
      const next = await navigator.mediaDevices.getUserMedia({
        video: { width: { ideal: MEDIA_LIMITS.cameraIdeal.width }, height: { ideal: MEDIA_LIMITS.cameraIdeal.height }, facingMode: 'user' },
        audio: false,
      });
      streamRef.current = next;
      setStream(next);
      setState('on');
    } catch {
      setState('error');
    }
  }, []);

  // The preview element may mount after the stream arrives (or be replaced), so attach on every change.
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    video.srcObject = stream;
    if (stream) void video.play().catch(() => undefined);
  }, [stream, state]);

  useEffect(() => () => stopStream(streamRef.current), []);

  return { videoRef, stream, state, start, stop };
}
