import { test } from "node:test";
import assert from "node:assert/strict";
import { DataError, labelCounts, labelKindFor, parseDataset, readDataset } from "../../src/io/index.js";
import { dataFile, fixture } from "../fixtures.js";

function dataError(path: string, opts: Parameters<typeof readDataset>[1] = {}): DataError {
  try {
    readDataset(path, opts);
  } catch (e) {
    assert.ok(e instanceof DataError, `expected a DataError, got ${String(e)}`);
    return e;
  }
  assert.fail(`reading ${path} should have failed`);
}

test("reads inputs column-major and -1/+1 labels", () => {
  const ds = readDataset(fixture("data", "labels_pm1.csv"), { labels: "binary" });
  assert.equal(ds.n, 5);
  assert.equal(ds.d, 2);
  assert.deepEqual(ds.inputNames, ["x1", "x2"]);
  assert.equal(ds.responseName, "y");
  assert.deepEqual(Array.from(ds.y), [1, -1, 1, -1, 1]);
  assert.equal(ds.X.rows, 5);
  assert.equal(ds.X.cols, 2);
  // column-major: x1 then x2
  assert.deepEqual(Array.from(ds.X.data), [0.5, 1.5, -0.25, 2, 0, -1.25, 2, 0.03, 0, 1]);
  assert.equal(ds.X.get(2, 1), 0.03);
});

test("0/1 labels become -1/+1 by default and stay 0/1 on request", () => {
  const pm = readDataset(fixture("data", "labels_01.csv"), { labels: "binary" });
  assert.deepEqual(Array.from(pm.y), [1, -1, 1, -1, -1]);
  const zo = readDataset(fixture("data", "labels_01.csv"), { labels: "binary", binaryCoding: "zeroOne" });
  assert.deepEqual(Array.from(zo.y), [1, 0, 1, 0, 0]);
  const fromPm = readDataset(fixture("data", "labels_pm1.csv"), { labels: "binary", binaryCoding: "zeroOne" });
  assert.deepEqual(Array.from(fromPm.y), [1, 0, 1, 0, 1]);
});

test("the response may be any column, and another name", () => {
  const ds = readDataset(fixture("data", "counts.csv"), { labels: "count" });
  assert.deepEqual(ds.inputNames, ["x1", "x2"]);
  assert.deepEqual(Array.from(ds.y), [3, 0, 12]);
  assert.deepEqual(Array.from(ds.X.column(1)), [1, 2, 3]);
  const byName = parseDataset("a,label\n1,2\n3,4\n", "mem.csv", { responseColumn: "label" });
  assert.deepEqual(Array.from(byName.y), [2, 4]);
  assert.deepEqual(byName.inputNames, ["a"]);
});

test("white space, quotes, CRLF, a BOM and blank lines are accepted", () => {
  const ds = parseDataset('\uFEFF"y", x1\r\n 1 , "2.5"\r\n\r\n-1,+3\r\n', "mem.csv", { labels: "binary" });
  assert.equal(ds.n, 2);
  assert.deepEqual(Array.from(ds.X.data), [2.5, 3]);
  assert.deepEqual(Array.from(ds.y), [1, -1]);
});

test("real responses need only be finite", () => {
  const ds = parseDataset("y,x\n-3.5,1\n1e3,2\n", "mem.csv");
  assert.deepEqual(Array.from(ds.y), [-3.5, 1000]);
});

test("labelKindFor maps likelihoods to what their responses must be", () => {
  assert.equal(labelKindFor("probit"), "binary");
  assert.equal(labelKindFor("logistic"), "binary");
  assert.equal(labelKindFor("poisson"), "count");
  assert.equal(labelKindFor("gaussian"), "real");
});

test("labelCounts counts each label", () => {
  assert.deepEqual([...labelCounts(Float64Array.of(1, -1, 1, 1))], [[-1, 1], [1, 3]]);
});

test("a message names file, line and column exactly", () => {
  const path = fixture("data", "non_numeric.csv");
  const e = dataError(path);
  assert.equal(e.message, `${path}:7:3: cell "abc" in column "x2" is not a number`);
  assert.equal(e.line, 7);
  assert.equal(e.column, 3);
  assert.equal(e.columnName, "x2");
});

test("a line number counts the header and blank lines", () => {
  const e = (() => {
    try {
      parseDataset("y,x\n\n1,2\n\n-1,oops\n", "m.csv");
    } catch (err) {
      return err as DataError;
    }
    assert.fail("should fail");
  })();
  assert.equal(e.message, 'm.csv:5:2: cell "oops" in column "x" is not a number');
});

test("a file without a header says the first line looks like data", () => {
  const e = dataError(fixture("data", "no_header.csv"));
  assert.match(e.message, /no_header\.csv:1: no header: the first line looks like data; the file needs a header line naming the columns \(the response "y" and the inputs\)$/);
});

test("ordinal labels must be integers", () => {
  assert.deepEqual(Array.from(parseDataset("y,x\n1,0\n3,1\n", "o.csv", { labels: "ordinal" }).y), [1, 3]);
  assert.throws(() => parseDataset("y,x\n1,0\n1.5,1\n", "o.csv", { labels: "ordinal" }), /o\.csv:3:1: ordinal label "1\.5" in column "y" is not an integer category/);
});

test("a number beyond the double range is not finite", () => {
  assert.throws(() => parseDataset("y,x\n1,1e400\n", "big.csv"), /big\.csv:2:2: cell "1e400" in column "x" is not finite/);
});

test("hex, empty and odd spellings are not numbers", () => {
  assert.throws(() => parseDataset("y,x\n1,0x10\n", "h.csv"), /h\.csv:2:2: cell "0x10" in column "x" is not a number/);
  assert.throws(() => parseDataset("y,x\n1,1e\n", "h.csv"), /h\.csv:2:2: cell "1e" in column "x" is not a number/);
  assert.throws(() => parseDataset("y,x\n1,1,\n", "h.csv"), /h\.csv:2: row has 3 cells, the header has 2/);
});

test("the real USPS 3-vs-5 training set: 1214 x 256, 658 threes (+1) and 556 fives (-1)", () => {
  const path = dataFile("usps35_origsplit_train.csv");
  const ds = readDataset(path, { labels: "binary" });
  assert.equal(ds.n, 1214);
  assert.equal(ds.d, 256);
  assert.deepEqual(ds.inputNames.slice(0, 2), ["x1", "x2"]);
  assert.deepEqual([...labelCounts(ds.y)], [[-1, 556], [1, 658]]);
  // pixels are grey levels scaled to [-1, 1]
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of ds.X.data) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  assert.ok(lo >= -1 && hi <= 1, `pixel range [${lo}, ${hi}]`);
});

test("the real Pima data (0/1 labels): 768 x 8, 268 positive, 500 negative", () => {
  const path = dataFile("pima768.csv");
  const ds = readDataset(path, { labels: "binary", binaryCoding: "zeroOne" });
  assert.equal(ds.n, 768);
  assert.equal(ds.d, 8);
  assert.deepEqual(ds.inputNames, ["npreg", "glu", "bp", "skin", "insulin", "bmi", "ped", "age"]);
  assert.deepEqual([...labelCounts(ds.y)], [[0, 500], [1, 268]]);
  assert.equal(ds.X.get(0, 5), 33.6); // first row's bmi
  const pm = readDataset(path, { labels: "binary" });
  assert.deepEqual([...labelCounts(pm.y)], [[-1, 500], [1, 268]]);
});
