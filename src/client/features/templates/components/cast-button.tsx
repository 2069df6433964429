// Cast to TV through the browser's Remote Playback API (decisions page): Chromecast in Chrome, AirPlay
// in Safari. Where the browser has none, say so instead of pretending.
import { Cast } from 'lucide-react';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { Button } from '@client/components/ui/button';
import { toast } from '@client/components/ui/use-toast';

export const CASTING_UNAVAILABLE = "Casting isn't available in this browser. Try Chrome (Chromecast) or Safari (AirPlay).";

export const NO_CAST_DEVICE = 'No TV or cast device was found on your network.';

export function CastButton({
  videoRef,
  prepare,
  disabled = false,
}: {
  videoRef: RefObject<HTMLVideoElement | null>;
  /** Runs before the device picker opens, e.g. to point the video at a signed link a TV can fetch without the cookie. */
  prepare?: () => Promise<void>;
  disabled?: boolean;
}) {
  const [note, setNote] = useState<string>();
  const [connected, setConnected] = useState(false);
  /** Whether a device is in reach; undefined where the browser cannot watch (Android prompts anyway). */
  const available = useRef<boolean>(undefined);

  useEffect(() => {
    const remote = videoRef.current?.remote;
    if (!remote) return;
    let watchId: number | undefined;
    remote
      .watchAvailability((isAvailable) => {
        available.current = isAvailable;
      })
      .then((id) => {
        watchId = id;
      })
      .catch(() => {
        available.current = undefined;
      });
    const onConnect = () => {
      setConnected(true);
      toast({ title: 'Connected! Now casting to your TV' });
    };
    const onDisconnect = () => {
      setConnected(false);
      toast({ title: 'Disconnected' });
    };
    remote.addEventListener('connect', onConnect);
    remote.addEventListener('disconnect', onDisconnect);
    return () => {
      if (watchId !== undefined) void remote.cancelWatchAvailability(watchId).catch(() => {});
      remote.removeEventListener('connect', onConnect);
      remote.removeEventListener('disconnect', onDisconnect);
    };
  }, [videoRef]);

  async function cast() {
    const video = videoRef.current;
    if (!video?.remote || typeof video.remote.prompt !== 'function') {
      setNote(CASTING_UNAVAILABLE);
      return;
    }
    if (available.current === false) {
      setNote(NO_CAST_DEVICE);
      return;
    }
    setNote(undefined);
    try {
      await prepare?.();
      await video.remote.prompt();
    } catch (error) {
      const name = error instanceof DOMException ? error.name : '';
      if (name === 'NotAllowedError' || name === 'AbortError') return; // the viewer closed the picker
      if (name === 'NotSupportedError' || name === 'InvalidStateError') setNote(CASTING_UNAVAILABLE);
      else if (name === 'NotFoundError') setNote(NO_CAST_DEVICE);
      else toast({ variant: 'destructive', title: 'Casting failed', description: 'Unable to connect to the selected device.' });
    }
  }

  return (
    <div className="grid gap-2">
      <Button variant="outline" onClick={() => void cast()} aria-pressed={connected} disabled={disabled}>
        <Cast aria-hidden="true" />
        Cast to TV
      </Button>
      {note && (
        <p role="status" className="text-sm text-muted-foreground">
          {note}
        </p>
      )}
    </div>
  );
}
