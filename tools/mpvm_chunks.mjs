// Run Python code in the MicroPython WebAssembly VM as a sequence of chunks.
//
//   node tools/mpvm_chunks.mjs < job.json
//
// job: {"mounts": [[vmPath, hostPath]...], "trees": [[vmDir, hostDir]...],
//       "absent": [name...], "chunks": [python source...], "heapsize": bytes}
//
// Why chunks: in this VM gc.collect() frees nothing while a runPython call is
// running; garbage is reclaimed only between calls. tools/bench_memory.py
// measures kept heap in a chunk of its own after each step it measures.
// Files are mounted as tests/mpvm/run.mjs does (sys.path = /lib, /, .frozen).

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PKG = path.join(HERE, "..", "tests", "mpvm", "node_modules", "@micropython",
    "micropython-webassembly-pyscript", "micropython.mjs");

function mkdirs(FS, dir) {
    let cur = "";
    for (const part of dir.split("/").filter((s) => s)) {
        cur += "/" + part;
        try { FS.mkdir(cur); } catch (e) { /* exists */ }
    }
}

function writeFile(FS, vmPath, data) {
    mkdirs(FS, path.posix.dirname(vmPath));
    FS.writeFile(vmPath, data);
}

function copyTree(FS, vmDir, hostDir) {
    for (const ent of fs.readdirSync(hostDir, { withFileTypes: true })) {
        if (ent.name === "__pycache__" || ent.name.startsWith(".")) continue;
        const host = path.join(hostDir, ent.name);
        const vm = path.posix.join(vmDir, ent.name);
        if (ent.isDirectory()) copyTree(FS, vm, host);
        else if (ent.name.endsWith(".py")) writeFile(FS, vm, fs.readFileSync(host));
    }
}

const job = JSON.parse(fs.readFileSync(0, "utf8"));
const { loadMicroPython } = await import(PKG);
let out = "";
let err = "";
const mp = await loadMicroPython({
    heapsize: job.heapsize || 1024 * 1024,
    linebuffer: false,
    stdout: (b) => { out += Buffer.from(b).toString(); },
    stderr: (b) => { err += Buffer.from(b).toString(); },
});
for (const [vm, host] of job.mounts || []) writeFile(mp.FS, vm, fs.readFileSync(host));
for (const [vm, host] of job.trees || []) copyTree(mp.FS, vm, host);
for (const name of job.absent || []) {
    writeFile(mp.FS, `/.absent/${name}.py`, `raise ImportError("no module named '${name}'")\n`);
}
let status = 0;
try {
    mp.runPython("import sys\nsys.path[:] = ['/lib', '/', '/.absent', '.frozen']\n");
    for (const chunk of job.chunks) mp.runPython(chunk);
} catch (e) {
    err += (e && e.message !== undefined ? e.message : String(e)) + "\n";
    status = 1;
}
process.stdout.write(out);
process.stderr.write(err);
process.exitCode = status;
