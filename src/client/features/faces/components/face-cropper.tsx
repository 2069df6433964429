// A square over a photo that the parent drags (pointer or touch), resizes (the corner handle or the
// slider) or moves with the arrow keys, to pick one face out of a group photo.
import { type KeyboardEvent, type PointerEvent, useId, useRef } from 'react';
import { type Size, type Square, clampSquare, maxCropSize, minCropSize, resizeSquare } from '../lib/face-crop';

interface FaceCropperProps {
  /** The photo (a data URL). */
  src: string;
  /** Its size in pixels; `square` is in the same pixels. */
  image: Size;
  square: Square;
  onChange: (square: Square) => void;
}

const percent = (value: number) => `${value * 100}%`;

export function FaceCropper({ src, image, square, onChange }: FaceCropperProps) {
  const frameRef = useRef<HTMLDivElement>(null);
  const areaRef = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const sizeId = useId();
  const minSize = minCropSize(image);
  const maxSize = maxCropSize(image);

  /** Follows one pointer from press to release: moving the square, or resizing it from its corner. */
  function follow(mode: 'move' | 'resize') {
    return (event: PointerEvent<HTMLElement>) => {
      const frame = frameRef.current;
      if (!frame || event.button !== 0) return;
      event.preventDefault();
      event.stopPropagation();
      areaRef.current?.focus();
      // Pointer pixels to photo pixels: the photo is shown scaled to fit the dialog.
      const scale = image.width / frame.getBoundingClientRect().width;
      const start = { x: event.clientX, y: event.clientY, square };
      const target = event.currentTarget;
      target.setPointerCapture(event.pointerId);
      const move = (next: globalThis.PointerEvent) => {
        const dx = (next.clientX - start.x) * scale;
        const dy = (next.clientY - start.y) * scale;
        const from = start.square;
        if (mode === 'move') return onChange(clampSquare({ ...from, x: from.x + dx, y: from.y + dy }, image));
        // The corner follows the pointer; the opposite corner stays where it is.
        const size = Math.min(from.size + Math.max(dx, dy), image.width - from.x, image.height - from.y);
        onChange(clampSquare({ ...from, size }, image));
      };
      const end = () => {
        target.removeEventListener('pointermove', move);
        target.removeEventListener('pointerup', end);
        target.removeEventListener('pointercancel', end);
      };
      target.addEventListener('pointermove', move);
      target.addEventListener('pointerup', end);
      target.addEventListener('pointercancel', end);
    };
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const step = Math.max(1, Math.round(maxSize * (event.shiftKey ? 0.1 : 0.02)));
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const by = moves[event.key];
    if (by) onChange(clampSquare({ ...square, x: square.x + by[0], y: square.y + by[1] }, image));
    else if (event.key === '+' || event.key === '=') onChange(resizeSquare(square, square.size + step, image));
    else if (event.key === '-' || event.key === '_') onChange(resizeSquare(square, square.size - step, image));
    else return;
    event.preventDefault();
  }

  return (
    <div className="grid gap-3">
      <p id={hintId} className="text-sm text-muted-foreground">
        Drag the square over the face, or move it with the arrow keys. Drag its corner or use the slider to change its
        size.
      </p>
      <div className="flex justify-center rounded-xl bg-muted">
        <div ref={frameRef} className="relative overflow-hidden rounded-xl select-none">
          <img src={src} alt="The whole photo" draggable={false} className="block max-h-[45vh] w-auto max-w-full" />
          <div
            ref={areaRef}
            role="group"
            aria-roledescription="crop area"
            aria-label="Crop area"
            aria-describedby={hintId}
            tabIndex={0}
            onPointerDown={follow('move')}
            onKeyDown={onKeyDown}
            className="absolute cursor-move touch-none rounded-md border-2 border-white shadow-[0_0_0_9999px_rgb(0_0_0/0.55)] outline-none focus-visible:ring-[3px] focus-visible:ring-ring"
            style={{
              left: percent(square.x / image.width),
              top: percent(square.y / image.height),
              width: percent(square.size / image.width),
              height: percent(square.size / image.height),
            }}
          >
            <span
              aria-hidden="true"
              onPointerDown={follow('resize')}
              className="absolute right-0.5 bottom-0.5 size-5 cursor-nwse-resize touch-none rounded-full border-2 border-white bg-primary shadow"
            />
          </div>
        </div>
      </div>
      <div className="grid gap-1.5">
        <label htmlFor={sizeId} className="text-sm font-medium">
          Crop size
        </label>
        <input
          id={sizeId}
          type="range"
          min={minSize}
          max={maxSize}
          value={square.size}
          aria-valuetext={`${Math.round((square.size / maxSize) * 100)}% of the photo`}
          onChange={(event) => onChange(resizeSquare(square, Number(event.target.value), image))}
          className="w-full accent-primary"
        />
      </div>
    </div>
  );
}
