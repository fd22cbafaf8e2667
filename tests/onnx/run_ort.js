// Runs ONNX models in ONNX Runtime (the npm package onnxruntime-node) for
// tests/onnx/ort_test.py: reads a JSON list of jobs
//   [{"model": "f.onnx", "inputs": ["f.in0.npy"], "outputs": ["f.ort0.npy"]}]
// feeds each model its .npy inputs (in the order of the model's inputs),
// writes each output as .npy (in the order of its outputs), and prints
// one JSON line per job: {"model": ..., "ok": true} or {"ok": false, "error": ...}.
// Usage: node run_ort.js jobs.json   (NODE_PATH must reach onnxruntime-node)
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

const kinds = {
  '<f4': ['float32', Float32Array], '<f8': ['float64', Float64Array],
  '<i4': ['int32', Int32Array], '<i8': ['int64', BigInt64Array], '|b1': ['bool', Uint8Array],
};

function readNpy(path) {
  const buf = fs.readFileSync(path);
  if (buf.toString('latin1', 1, 6) !== 'NUMPY') throw new Error(path + ': not a .npy file');
  const major = buf[6];
  const hlen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = buf.toString('latin1', start, start + hlen);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  if (/'fortran_order':\s*True/.test(header)) throw new Error(path + ': Fortran order');
  const dims = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').map(s => s.trim()).filter(s => s).map(Number);
  const kind = kinds[descr];
  if (!kind) throw new Error(path + ': unsupported dtype ' + descr);
  const data = buf.subarray(start + hlen);
  const copy = new Uint8Array(data.length);
  copy.set(data);
  return new ort.Tensor(kind[0], new kind[1](copy.buffer), dims);
}

function writeNpy(path, t) {
  const entry = Object.entries(kinds).find(([, k]) => k[0] === t.type);
  if (!entry) throw new Error('output of unsupported type ' + t.type);
  const shape = t.dims.length === 1 ? `(${t.dims[0]},)` : `(${t.dims.join(', ')})`;
  let header = `{'descr': '${entry[0]}', 'fortran_order': False, 'shape': ${shape}, }`;
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  const data = t.type === 'bool' ? Buffer.from(Uint8Array.from(t.data, v => (v ? 1 : 0)))
                                 : Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  fs.writeFileSync(path, Buffer.concat([head, Buffer.from(header, 'latin1'), data]));
}

// One thread per session: the models are tiny, and a thread pool per
// session would cost more than running them.
const options = {intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential'};

async function main() {
  const jobs = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  for (const job of jobs) {
    try {
      const session = await ort.InferenceSession.create(job.model, options);
      const feeds = {};
      job.inputs.forEach((file, i) => { feeds[session.inputNames[i]] = readNpy(file); });
      const results = await session.run(feeds);
      job.outputs.forEach((file, i) => writeNpy(file, results[session.outputNames[i]]));
      console.log(JSON.stringify({model: job.model, ok: true}));
    } catch (e) {
      console.log(JSON.stringify({model: job.model, ok: false, error: String(e && e.message || e)}));
    }
  }
}

main().catch(e => {
  console.error(e);
  process.exit(1);
});
