// The PNG heat maps of the Cox process figures: the signature, the header's size, the known CRC of
// the IEND chunk, and the pixels read back (inflated) in the colour map's order.
import { test } from "node:test";
import assert from "node:assert/strict";
import { inflateSync } from "node:zlib";
import { heatmapPng } from "../../experiments/heatmapPng.js";

test("heatmapPng writes a valid RGB PNG whose pixels follow the field", () => {
  const side = 3;
  const field = [0, 1, 2, 3, 4, 5, 6, 7, 8]; // cell (i, j) at i + 3 j
  const png = heatmapPng(field, side, 0, 8, 2);
  assert.deepEqual([...png.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
  assert.equal(png.toString("ascii", 12, 16), "IHDR");
  assert.equal(png.readUInt32BE(16), 6);
  assert.equal(png.readUInt32BE(20), 6);
  // IEND with no data always has the CRC AE 42 60 82
  assert.equal(png.subarray(png.length - 4).toString("hex"), "ae426082");
  const idatLength = png.readUInt32BE(33);
  assert.equal(png.toString("ascii", 37, 41), "IDAT");
  const raw = inflateSync(png.subarray(41, 41 + idatLength));
  assert.equal(raw.length, 6 * (1 + 18));
  const pixel = (y: number, x: number) => [...raw.subarray(y * 19 + 1 + 3 * x, y * 19 + 4 + 3 * x)];
  assert.deepEqual(pixel(0, 0), [68, 1, 84]); // the lowest value: the map's first colour
  assert.deepEqual(pixel(5, 5), [253, 231, 37]); // cell (2, 2) = 8, the highest: its last
  assert.deepEqual(pixel(0, 1), pixel(1, 0)); // one cell is a 2 x 2 block
});
