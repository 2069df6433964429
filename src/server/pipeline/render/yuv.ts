// A raw yuv420p frame as three plane views, and the conversions the renderer needs: a crop of a frame
// to RGB for the face engine, and an RGB picture to full-resolution Y, U, V planes for compositing.
// BT.601 limited range, what ffmpeg assumes for SD/HD material without tags.
import type { Frame } from '../face-engine';

export interface YuvFrame {
  width: number;
  height: number;
  /** width × height luma, then two (width/2) × (height/2) chroma planes. */
  y: Uint8Array;
  u: Uint8Array;
  v: Uint8Array;
}

export function yuvFrame(bytes: Uint8Array, width: number, height: number): YuvFrame {
  const lumaBytes = width * height;
  const chromaBytes = lumaBytes / 4;
  return {
    width,
    height,
    y: bytes.subarray(0, lumaBytes),
    u: bytes.subarray(lumaBytes, lumaBytes + chromaBytes),
    v: bytes.subarray(lumaBytes + chromaBytes, lumaBytes + 2 * chromaBytes),
  };
}

const clampByte = (value: number) => (value < 0 ? 0 : value > 255 ? 255 : value);

/** A square-or-not region of the frame. */
export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The region of the frame as packed RGB, shrunk by `scale` (≤ 1, nearest pixel: the face engine
 * resizes again anyway). Parts of the region outside the frame are black.
 */
export function regionToRgb(frame: YuvFrame, region: Region, scale = 1): Frame {
  const width = Math.max(1, Math.round(region.width * scale));
  const height = Math.max(1, Math.round(region.height * scale));
  const data = new Uint8Array(width * height * 3);
  const halfWidth = frame.width >> 1;
  const step = 1 / scale;
  for (let oy = 0; oy < height; oy++) {
    const sy = Math.floor(region.y + (oy + 0.5) * step);
    if (sy < 0 || sy >= frame.height) continue;
    const lumaRow = sy * frame.width;
    const chromaRow = (sy >> 1) * halfWidth;
    let to = oy * width * 3;
    for (let ox = 0; ox < width; ox++, to += 3) {
      const sx = Math.floor(region.x + (ox + 0.5) * step);
      if (sx < 0 || sx >= frame.width) continue;
      const c = 1.164 * (frame.y[lumaRow + sx]! - 16);
      const d = frame.u[chromaRow + (sx >> 1)]! - 128;
      const e = frame.v[chromaRow + (sx >> 1)]! - 128;
      data[to] = clampByte(c + 1.596 * e);
      data[to + 1] = clampByte(c - 0.392 * d - 0.813 * e);
      data[to + 2] = clampByte(c + 2.017 * d);
    }
  }
  return { data, width, height };
}

/** Packed RGB (or RGBA) to full-resolution float Y, U, V planes (chroma is not subsampled here). */
export function rgbToYuvPlanes(frame: Frame): { y: Float32Array; u: Float32Array; v: Float32Array } {
  const count = frame.width * frame.height;
  const channels = frame.data.length / count;
  const y = new Float32Array(count);
  const u = new Float32Array(count);
  const v = new Float32Array(count);
  for (let i = 0, from = 0; i < count; i++, from += channels) {
    const r = frame.data[from]!;
    const g = frame.data[from + 1]!;
    const b = frame.data[from + 2]!;
    y[i] = 16 + 0.257 * r + 0.504 * g + 0.098 * b;
    u[i] = 128 - 0.148 * r - 0.291 * g + 0.439 * b;
    v[i] = 128 + 0.439 * r - 0.368 * g - 0.071 * b;
  }
  return { y, u, v };
}

/** Bilinear sample of a float plane at (x, y) in pixel-centre coordinates (0.5 = the first pixel's centre is 0). */
export function sampleBilinear(plane: Float32Array, width: number, height: number, x: number, y: number): number {
  const fx = Math.min(Math.max(x, 0), width - 1.001);
  const fy = Math.min(Math.max(y, 0), height - 1.001);
  const ix = fx | 0;
  const iy = fy | 0;
  const tx = fx - ix;
  const ty = fy - iy;
  const at = iy * width + ix;
  const top = plane[at]! + (plane[at + 1]! - plane[at]!) * tx;
  const bottom = plane[at + width]! + (plane[at + width + 1]! - plane[at + width]!) * tx;
  return top + (bottom - top) * ty;
}

/**
 * The square region resampled to size × size RGB floats 0..1 (luma bilinear, chroma nearest), the mesh
 * model's input. Outside the frame is black.
 */
export function regionToRgbFloats(frame: YuvFrame, region: Region, size: number): Float32Array {
  const out = new Float32Array(size * size * 3);
  const step = region.width / size;
  const halfWidth = frame.width >> 1;
  const maxX = frame.width - 1;
  const maxY = frame.height - 1;
  for (let oy = 0, to = 0; oy < size; oy++) {
    const fy = region.y + (oy + 0.5) * step - 0.5;
    if (fy < 0 || fy > maxY) {
      to += size * 3;
      continue;
    }
    const iy = Math.min(fy | 0, maxY - 1);
    const ty = fy - iy;
    const row = iy * frame.width;
    const chromaRow = (Math.round(fy) >> 1) * halfWidth;
    for (let ox = 0; ox < size; ox++, to += 3) {
      const fx = region.x + (ox + 0.5) * step - 0.5;
      if (fx < 0 || fx > maxX) continue;
      const ix = Math.min(fx | 0, maxX - 1);
      const tx = fx - ix;
      const at = row + ix;
      const top = frame.y[at]! + (frame.y[at + 1]! - frame.y[at]!) * tx;
      const bottom = frame.y[at + frame.width]! + (frame.y[at + frame.width + 1]! - frame.y[at + frame.width]!) * tx;
      const c = 1.164 * (top + (bottom - top) * ty - 16);
      const chroma = chromaRow + (Math.round(fx) >> 1);
      const d = frame.u[chroma]! - 128;
      const e = frame.v[chroma]! - 128;
      const r = (c + 1.596 * e) / 255;
      const g = (c - 0.392 * d - 0.813 * e) / 255;
      const b = (c + 2.017 * d) / 255;
      out[to] = r < 0 ? 0 : r > 1 ? 1 : r;
      out[to + 1] = g < 0 ? 0 : g > 1 ? 1 : g;
      out[to + 2] = b < 0 ? 0 : b > 1 ? 1 : b;
    }
  }
  return out;
}
