// Microphone recording with MediaRecorder: idle → recording → recorded, with an optional automatic stop.
import { useCallback, useEffect, useRef, useState } from 'react';
import { MEDIA_MESSAGES } from '@shared/media-rules';
import { isPermissionDenied, recorderMimeType, stopStream } from '@client/lib/media';
import { notifyError } from '@client/lib/notify';

export type RecorderStatus = 'idle' | 'recording' | 'recorded';

export interface Recording {
  blob: Blob;
  /** An object URL for playback; revoked on reset and unmount. */
  url: string;
  /** Seconds, as timed while recording. */
  duration: number;
}

/** Stop this much before the limit, so the file the server measures never runs over it. */
const AUTO_STOP_MARGIN_SECONDS = 0.4;

export function useVoiceRecorder({ maxSeconds, onStop }: { maxSeconds?: number; onStop?: (recording: Recording) => void } = {}) {
  const [status, setStatus] = useState<RecorderStatus>('idle');
  const [elapsed, setElapsed] = useState(0);
  const [recording, setRecording] = useState<Recording | null>(null);
  // The microphone while recording, as state so the level meter starts and stops with it.
  const [liveStream, setLiveStream] = useState<MediaStream | null>(null);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const timerRef = useRef<ReturnType<typeof setInterval> | undefined>(undefined);
  const urlRef = useRef<string | null>(null);
  const onStopRef = useRef(onStop);
  onStopRef.current = onStop;

  const stop = useCallback(() => {
    const recorder = recorderRef.current;
    if (recorder && recorder.state !== 'inactive') recorder.stop();
  }, []);

  const clear = useCallback(() => {
    if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    urlRef.current = null;
    setRecording(null);
    setLiveStream(null);
    setElapsed(0);
    setStatus('idle');
  }, []);

  const start = useCallback(async () => {
    clear();
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      if (isPermissionDenied(error)) notifyError(MEDIA_MESSAGES.microphoneDenied, 'Microphone access denied');
      else notifyError(MEDIA_MESSAGES.microphoneUnavailable);
      return;
    }
    streamRef.current = stream;
    const mimeType = recorderMimeType('audio');
    const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    const chunks: Blob[] = [];
    let startedAt = performance.now();
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    recorder.onstart = () => {
      startedAt = performance.now();
      timerRef.current = setInterval(() => {
        const seconds = (performance.now() - startedAt) / 1000;
        setElapsed(seconds);
        if (maxSeconds !== undefined && seconds >= maxSeconds - AUTO_STOP_MARGIN_SECONDS) stop();
      }, 100);
    };
    recorder.onstop = () => {
      clearInterval(timerRef.current);
      stopStream(stream);
      streamRef.current = null;
      setLiveStream(null);
      recorderRef.current = null;
      const duration = Math.round(((performance.now() - startedAt) / 1000) * 10) / 10;
      const blob = new Blob(chunks, { type: recorder.mimeType || mimeType || 'audio/webm' });
      const url = URL.createObjectURL(blob);
      urlRef.current = url;
      const next = { blob, url, duration };
      setRecording(next);
      setElapsed(duration);
      setStatus('recorded');
      onStopRef.current?.(next);
    };
    recorderRef.current = recorder;
    recorder.start(250);
    setLiveStream(stream);
    setStatus('recording');
  }, [clear, maxSeconds, stop]);

  // Leaving the page mid-recording releases the microphone and the object URL.
  useEffect(
    () => () => {
      clearInterval(timerRef.current);
      const recorder = recorderRef.current;
      if (recorder) {
        recorder.onstop = null;
        if (recorder.state !== 'inactive') recorder.stop();
      }
      stopStream(streamRef.current);
      if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    },
    [],
  );

  return { status, elapsed, recording, liveStream, start, stop, reset: clear };
}
