import { crc32, deflateSync } from 'node:zlib';

/**
 * A PNG of one colour with a darker frame, so every image a test store is filled with is a
 * distinct, valid file its media library accepts.
 */
export function png(
  width: number,
  height: number,
  rgb: readonly [number, number, number],
  frameWidth = 4,
): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const frame =
        x < frameWidth || y < frameWidth || x >= width - frameWidth || y >= height - frameWidth;
      const at = y * (width * 3 + 1) + 1 + x * 3;
      rows.set(
        rgb.map((c) => (frame ? c >> 1 : c)),
        at,
      );
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
