import type { FaceImage } from '@shared/api-types';
import { FaceCropPreview } from '@client/features/faces/components/face-crop-preview';
import { cn, initials } from '@client/lib/utils';

/** The person's default face, cut to the face the render uses (not the whole photo), when there is one; else their initials. */
export function PersonAvatar({ name, face, className }: { name: string; face?: Pick<FaceImage, 'imageUrl' | 'faceBox'> | null; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex size-11 shrink-0 items-center justify-center overflow-hidden rounded-full bg-linear-to-br from-sunshine/60 to-primary/40 font-bold text-foreground',
        className,
      )}
    >
      {face ? <FaceCropPreview src={face.imageUrl} box={face.faceBox} alt="" className="size-full rounded-none border-0" /> : initials(name)}
    </span>
  );
}
