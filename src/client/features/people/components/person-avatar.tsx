import { cn, initials } from '@client/lib/utils';

/** The person's default face when there is one, else their initials. */
export function PersonAvatar({ name, imageUrl, className }: { name: string; imageUrl?: string | null; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex size-11 shrink-0 items-center justify-center overflow-hidden rounded-full bg-linear-to-br from-sunshine/60 to-primary/40 font-bold text-foreground',
        className,
      )}
    >
      {imageUrl ? <img src={imageUrl} alt="" className="size-full object-cover" /> : initials(name)}
    </span>
  );
}
