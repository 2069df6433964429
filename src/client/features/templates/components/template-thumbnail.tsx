import { Film } from 'lucide-react';
import { useState } from 'react';
import { cn } from '@client/lib/utils';

/** A template's thumbnail, or a film icon when it has none or it does not load. */
export function TemplateThumbnail({ src, className }: { src: string | null; className?: string }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <span className={cn('flex size-full items-center justify-center bg-linear-to-br from-secondary to-accent text-primary/60', className)}>
        <Film className="size-10" aria-hidden="true" />
      </span>
    );
  }
  return <img src={src} alt="" loading="lazy" decoding="async" onError={() => setFailed(true)} className={cn('size-full object-cover', className)} />;
}
