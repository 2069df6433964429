// The square a parent crops a group photo to: its geometry, in pixels of the photo as the browser shows it
// (upright, as the server analysed it), and the cropped picture sent as a new face image.
import type { FaceImage } from '@shared/api-types';
import { MEDIA_LIMITS } from '@shared/media-rules';

export interface Square {
  x: number;
  y: number;
  size: number;
}

export interface Size {
  width: number;
  height: number;
}

export type FaceBox = NonNullable<FaceImage['faceBox']>;

/** The smallest crop: the face engine needs some pixels to find a face. */
export const MIN_CROP_PX = 64;
/** The cropped picture is scaled down to this side (plenty for the face engine, well under the upload limit). */
export const CROP_MAX_SIDE = 1024;

/** The largest square the photo holds. */
export function maxCropSize(image: Size): number {
  return Math.min(image.width, image.height);
}

/** The smallest square allowed (a tiny photo allows its whole self). */
export function minCropSize(image: Size): number {
  return Math.min(MIN_CROP_PX, maxCropSize(image));
}

/** The square within the photo: its size within the limits, then moved (not shrunk) back inside. */
export function clampSquare(square: Square, image: Size): Square {
  const size = Math.round(Math.min(maxCropSize(image), Math.max(minCropSize(image), square.size)));
  return {
    size,
    x: Math.round(Math.min(image.width - size, Math.max(0, square.x))),
    y: Math.round(Math.min(image.height - size, Math.max(0, square.y))),
  };
}

/** The same square with another size, around the same centre. */
export function resizeSquare(square: Square, size: number, image: Size): Square {
  const centreX = square.x + square.size / 2;
  const centreY = square.y + square.size / 2;
  return clampSquare({ x: centreX - size / 2, y: centreY - size / 2, size }, image);
}

/**
 * A square around a face (`box` in fractions of the photo), `scale` times the face's larger side: a crop
 * needs the hair, jaw and outline around the face for the engine to find it. Without a box, the middle.
 */
export function squareAround(box: FaceBox | null, image: Size, scale: number): Square {
  if (!box) return resizeSquare({ x: image.width / 2, y: image.height / 2, size: 0 }, maxCropSize(image) * 0.6, image);
  const width = box.width * image.width;
  const height = box.height * image.height;
  const size = scale * Math.max(width, height);
  const x = box.x * image.width + width / 2 - size / 2;
  const y = box.y * image.height + height / 2 - size / 2;
  return clampSquare({ x, y, size }, image);
}

export function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('This photo could not be opened. Please choose another.'));
    image.src = src;
  });
}

/** The square of the photo as a JPEG data URL, at most CROP_MAX_SIDE pixels a side. */
export async function cropToDataUrl(src: string, square: Square): Promise<string> {
  const image = await loadImage(src);
  const side = Math.min(square.size, CROP_MAX_SIDE);
  const canvas = document.createElement('canvas');
  canvas.width = side;
  canvas.height = side;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('Your browser could not crop this photo. Please crop it in another app and upload it.');
  context.drawImage(image, square.x, square.y, square.size, square.size, 0, 0, side, side);
  return canvas.toDataURL('image/jpeg', MEDIA_LIMITS.cameraJpegQuality);
}
