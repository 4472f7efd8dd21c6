// Run a Python script under the MicroPython WebAssembly VM (node driver).
//
//   node tests/mpvm/run.mjs [options] SCRIPT.py      (or "-" to read the script from stdin)
//
//   --mount VMPATH=HOSTPATH   copy one host file into the VM filesystem (parents created)
//   --tree VMDIR=HOSTDIR      copy every .py file under HOSTDIR into VMDIR (recursively)
//   --absent NAME[,NAME...]   make "import NAME" fail with ImportError (modules device
//                             code must not use; a shadow ahead of the VM's own module)
//   --heapsize BYTES          initial GC heap (the VM grows it on demand), default 1 MiB
//
// sys.path inside the VM is ["/lib", "/", <absent shadows>, ".frozen"], like CIRCUITPY.
// The script's output goes to stdout/stderr. A Python exception prints its traceback to
// stderr and the exit status is 1 (2 for a usage or mount error).
// Used by tests/compat.py; see docs/compat.md.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PKG = path.join(HERE, "node_modules", "@micropython", "micropython-webassembly-pyscript",
    "micropython.mjs");

function usage(msg) {
    process.stderr.write(`run.mjs: ${msg}\n`);
    process.exit(2);
}

function parseArgs(argv) {
    const opts = { mounts: [], trees: [], absent: [], heapsize: 1024 * 1024, script: null };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        const val = () => {
            if (i + 1 >= argv.length) usage(`${a} needs a value`);
            return argv[++i];
        };
        const pair = (s) => {
            const k = s.indexOf("=");
            if (k < 1) usage(`expected VMPATH=HOSTPATH, got ${s}`);
            return [s.slice(0, k), s.slice(k + 1)];
        };
        if (a === "--help" || a === "-h") {
            // the comment block at the top of this file is the usage text
            const text = fs.readFileSync(fileURLToPath(import.meta.url), "utf8");
            const usageLines = text.split("\n").filter((l) => l.startsWith("//"));
            process.stdout.write(usageLines.map((l) => l.slice(3)).join("\n") + "\n");
            process.exit(0);
        }
        if (a === "--mount") opts.mounts.push(pair(val()));
        else if (a === "--tree") opts.trees.push(pair(val()));
        else if (a === "--absent") opts.absent.push(...val().split(",").filter((s) => s));
        else if (a === "--heapsize") opts.heapsize = parseInt(val(), 10);
        else if (a.startsWith("--")) usage(`unknown option ${a}`);
        else if (opts.script === null) opts.script = a;
        else usage(`unexpected argument ${a}`);
    }
    if (opts.script === null) usage("no script given");
    return opts;
}

function mkdirs(FS, dir) {
    let cur = "";
    for (const part of dir.split("/").filter((s) => s)) {
        cur += "/" + part;
        try {
            FS.mkdir(cur);
        } catch (e) {
            // already there
        }
    }
}

function writeFile(FS, vmPath, data) {
    mkdirs(FS, path.posix.dirname(vmPath));
    FS.writeFile(vmPath, data);
}

function copyTree(FS, vmDir, hostDir) {
    for (const ent of fs.readdirSync(hostDir, { withFileTypes: true })) {
        if (ent.name === "__pycache__" || ent.name === "node_modules" || ent.name.startsWith(".")) {
            continue;
        }
        const host = path.join(hostDir, ent.name);
        const vm = path.posix.join(vmDir, ent.name);
        if (ent.isDirectory()) copyTree(FS, vm, host);
        else if (ent.name.endsWith(".py")) writeFile(FS, vm, fs.readFileSync(host));
    }
}

// Output is collected as bytes and flushed in chunks (one write per character is slow).
function sink(stream) {
    let buf = [];
    const flush = () => {
        if (buf.length) {
            stream.write(Buffer.from(buf));
            buf = [];
        }
    };
    const put = (bytes) => {
        for (const b of bytes) buf.push(b);
        if (buf.length >= 8192) flush();
    };
    return { put, flush };
}

const opts = parseArgs(process.argv.slice(2));
if (!fs.existsSync(PKG)) {
    usage(`MicroPython VM not installed (${PKG} missing): run  npm ci --prefix tests/mpvm`);
}
const code = opts.script === "-" ? fs.readFileSync(0, "utf8") : fs.readFileSync(opts.script, "utf8");

const { loadMicroPython } = await import(PKG);
const out = sink(process.stdout);
const err = sink(process.stderr);
const mp = await loadMicroPython({
    heapsize: opts.heapsize,
    linebuffer: false,
    stdout: (bytes) => out.put(bytes),
    stderr: (bytes) => err.put(bytes),
});

try {
    for (const [vm, host] of opts.mounts) writeFile(mp.FS, vm, fs.readFileSync(host));
    for (const [vm, host] of opts.trees) copyTree(mp.FS, vm, host);
    for (const name of opts.absent) {
        writeFile(mp.FS, `/.absent/${name}.py`,
            `raise ImportError("no module named '${name}' (not for device code: see docs/compat.md)")\n`);
    }
} catch (e) {
    usage(`mounting files: ${e.message || e}`);
}

let status = 0;
try {
    mp.runPython(
        "import sys\n" +
        "sys.path[:] = ['/lib', '/'" + (opts.absent.length ? ", '/.absent'" : "") + ", '.frozen']\n" +
        "del sys\n");
    mp.runPython(code);
} catch (e) {
    // PythonError: its message is the MicroPython traceback.
    out.flush();
    err.flush();
    const msg = e && e.message !== undefined ? e.message : String(e);
    const last = msg.trimEnd().split("\n").pop();
    const exit = /^SystemExit:? ?(\d*)$/.exec(last.trim());
    if (exit) {  // sys.exit(n): status n, no traceback
        status = exit[1] ? parseInt(exit[1], 10) : 0;
    } else {
        process.stderr.write(msg.endsWith("\n") ? msg : msg + "\n");
        status = 1;
    }
}
out.flush();
err.flush();
process.exitCode = status;
