import { crc32, deflateSync } from 'node:zlib';

/** A PNG (ISO/IEC 15948) of `size`×`size` RGBA pixels drawn by `pixel(x, y)`: real image bytes for uploads. */
export function drawPng(size: number, pixel: (x: number, y: number) => [number, number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(6, 9); // RGBA
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4); // filter type 0 (none)
    for (let x = 0; x < size; x++) row.set(pixel(x, y), 1 + x * 4);
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An organization's logo: a navy disc with a white diamond, on transparency. */
export function logoPng(size = 128): Buffer {
  const c = (size - 1) / 2;
  return drawPng(size, (x, y) => {
    const dx = x - c;
    const dy = y - c;
    if (Math.hypot(dx, dy) > size * 0.47) return [0, 0, 0, 0];
    if (Math.abs(dx) + Math.abs(dy) < size * 0.26) return [255, 255, 255, 255];
    return [29, 53, 87, 255];
  });
}
