// The live level of a microphone stream as React state; measuring stops when the stream goes away or on unmount.
import { useEffect, useState } from 'react';
import { type MicrophoneReading, QUIET_READING, watchMicrophoneLevel } from './microphone-level';

export function useMicrophoneLevel(stream: MediaStream | null): MicrophoneReading {
  const [reading, setReading] = useState<MicrophoneReading>(QUIET_READING);

  useEffect(() => {
    if (!stream) return;
    const stop = watchMicrophoneLevel(stream, setReading);
    return () => {
      stop();
      setReading(QUIET_READING);
    };
  }, [stream]);

  return reading;
}
