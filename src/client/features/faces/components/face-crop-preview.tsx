// The face a saved photo uses, cut out of it: a square around the server's `faceBox`, drawn by CSS from the
// stored image (no second picture is made or sent).
import { useState } from 'react';
import { cn } from '@client/lib/utils';
import { type FaceBox, type Size, squareAround } from '../lib/face-crop';

/** The preview shows a little around the face, so the parent can tell who it is. */
const PREVIEW_SCALE = 1.6;

interface FaceCropPreviewProps {
  src: string;
  box: FaceBox | null;
  alt: string;
  className?: string;
}

export function FaceCropPreview({ src, box, alt, className }: FaceCropPreviewProps) {
  // The photo's own size is known once it has loaded; until then it stays hidden.
  const [natural, setNatural] = useState<Size | null>(null);
  const square = natural && squareAround(box, natural, PREVIEW_SCALE);
  return (
    <div className={cn('relative aspect-square overflow-hidden rounded-2xl border bg-muted', className)}>
      <img
        src={src}
        alt={alt}
        loading="lazy"
        onLoad={(event) => setNatural({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight })}
        className={cn('absolute max-w-none', !square && 'invisible')}
        style={
          natural && square
            ? {
                width: `${(natural.width / square.size) * 100}%`,
                height: `${(natural.height / square.size) * 100}%`,
                left: `${(-square.x / square.size) * 100}%`,
                top: `${(-square.y / square.size) * 100}%`,
              }
            : undefined
        }
      />
    </div>
  );
}
