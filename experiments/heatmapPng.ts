/**
 * Heat maps of grid fields as PNG files (no dependency): each cell becomes a
 * `scale` x `scale` block coloured on the viridis map (matplotlib's, sampled at 9 stops and
 * interpolated linearly), between given lower and upper values. The PNG is written by hand:
 * signature, IHDR, one zlib-deflated IDAT (filter 0 on every row), IEND, each chunk with its CRC-32
 * (ISO 3309, the PNG specification, section 5.3).
 */
import { deflateSync } from "node:zlib";

const VIRIDIS: readonly [number, number, number][] = [
  [68, 1, 84], [71, 44, 122], [59, 81, 139], [44, 113, 142], [33, 144, 141], [39, 173, 129], [92, 200, 99], [170, 220, 50], [253, 231, 37],
];

function colour(t: number): [number, number, number] {
  const u = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(u));
  const f = u - i;
  const a = VIRIDIS[i];
  const b = VIRIDIS[i + 1];
  return [0, 1, 2].map((c) => Math.round(a[c] + f * (b[c] - a[c]))) as [number, number, number];
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "ascii");
  Buffer.from(data).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * The PNG of a side x side field (cell (i, j) at i + side j; row i drawn top down, column j left
 * to right), values mapped linearly from [lower, upper] to the colour map.
 */
export function heatmapPng(field: ArrayLike<number>, side: number, lower: number, upper: number, scale = 4): Buffer {
  const w = side * scale;
  const raw = Buffer.alloc(w * (1 + 3 * w));
  for (let y = 0; y < w; y++) {
    const rowStart = y * (1 + 3 * w);
    raw[rowStart] = 0;
    const i = Math.floor(y / scale);
    for (let x = 0; x < w; x++) {
      const j = Math.floor(x / scale);
      const [r, g, b] = colour((field[i + side * j] - lower) / (upper - lower || 1));
      raw[rowStart + 1 + 3 * x] = r;
      raw[rowStart + 2 + 3 * x] = g;
      raw[rowStart + 3 + 3 * x] = b;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(w, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", new Uint8Array(0))]);
}
