// Colour read off real pictures by the tests.
import sharp from 'sharp';

/**
 * How far the middle of a picture (35-60 % down, 30-70 % across: the cheeks and nose of a face crop or of the
 * talking woman's frame) is above grey in V of Y′CbCr (BT.601): 15-16 on her skin, 5-6 where an HDR signal
 * was read as ordinary video.
 */
export async function middleRedness(image: string | Buffer): Promise<number> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let red = 0;
  let count = 0;
  for (let y = Math.round(info.height * 0.35); y < info.height * 0.6; y++) {
    for (let x = Math.round(info.width * 0.3); x < info.width * 0.7; x++) {
      const at = (y * info.width + x) * 3;
      red += 0.5 * data[at]! - 0.418688 * data[at + 1]! - 0.081312 * data[at + 2]!;
      count++;
    }
  }
  return red / count;
}
