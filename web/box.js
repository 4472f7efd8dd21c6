// The box in a browser: the page's glue (web/index.html). Built into a folder by
// `python tools/web.py build` (docs/browser.md).
//
// Every rule and flow is Python: lib/referee and games run unchanged in MicroPython's
// WebAssembly port (or Pyodide, for the comparison: ?py=pyodide), with the browser's
// displayio and box (web/*.py). This file only
//   - loads the Python and its files (py.json) and calls browser_box.loop() once per
//     animation frame,
//   - rasterises the screen's draw commands into a 320x240 framebuffer and blits it,
//     scaled by a whole number of device pixels (crisp at any zoom), with the rings,
//   - turns keys 1-7 / M, touches (a zone per seat along the edges, multi-touch) and
//     mouse presses into capture edges stamped with the event's own time,
//   - plays the piezo's tones through Web Audio, keeps the settings in localStorage
//     (the NVM with the saves is kept there by browser_box.py).

const W = 320;
const H = 240;
const STATIONS = 7;
const MENU = 8;
const PER_RING = 12;
const SETTINGS_KEY = "referee-box-settings";
// browser_box.py's table (LIT, SEATS, SCENE, SCENE_LEN, DOWN, RINGS)
const LIT = 0, SEATS = 1, SCENE = 2, SCENE_LEN = 3, DOWN = 4, RINGS = 12;
const STATE_LEN = RINGS + STATIONS * PER_RING;
// web/displayio.py's commands
const RECT = 1, CIRCLE = 2, POLYGON = 3, TILES = 4;
const STATION_RGB = [0x2080ff, 0xff4020, 0x10c060, 0xffd000, 0xc040ff, 0x00d0d0, 0xff70b0];  // referee.palette.STATIONS

const page = {
  started: performance.now(),
  firstScreen: null,  // ms after navigation start: the first frame with the launcher drawn
  bootMs: null,
  runtime: new URLSearchParams(location.search).get("py") === "pyodide" ? "pyodide" : "micropython",
  passes: [],  // ms of each loop() call (one main-loop pass, with the draw commands when changed)
  rasters: [],  // ms of each rasterisation
  tones: [],  // [ms, Hz] of each tone, for the tests
  frames: 0,
};
globalThis.referee = page;

// ------------------------------------------------------------------- Python

// The VM's memory: its wasm instance's exported memory, caught as it is instantiated
// (the MicroPython package does not export its heap views).
async function withMemory(load) {
  const orig = { s: WebAssembly.instantiateStreaming, i: WebAssembly.instantiate };
  let memory = null;
  const grab = (r) => {
    const inst = r && (r.instance || r);
    if (inst && inst.exports && inst.exports.memory instanceof WebAssembly.Memory) memory = inst.exports.memory;
    return r;
  };
  WebAssembly.instantiateStreaming = (...a) => orig.s.apply(WebAssembly, a).then(grab);
  WebAssembly.instantiate = (...a) => orig.i.apply(WebAssembly, a).then(grab);
  try {
    const vm = await load();
    if (!memory) throw new Error("the Python's memory was not found");
    return [vm, memory];
  } finally {
    WebAssembly.instantiateStreaming = orig.s;
    WebAssembly.instantiate = orig.i;
  }
}

function writeFiles(FS, files) {
  for (const [path, text] of Object.entries(files)) {
    let dir = "";
    for (const part of path.split("/").slice(1, -1)) {
      dir += "/" + part;
      try { FS.mkdir(dir); } catch (e) { /* there already */ }
    }
    FS.writeFile(path, text);
  }
}

async function loadPython(files) {
  const out = (s) => console.log(typeof s === "string" ? s : new TextDecoder().decode(s));
  const err = (s) => console.error(typeof s === "string" ? s : new TextDecoder().decode(s));
  if (page.runtime === "pyodide") {
    const { loadPyodide } = await import("./pyodide/pyodide.mjs");
    const [py, memory] = await withMemory(() => loadPyodide({ indexURL: new URL("pyodide/", location.href).href, stdout: out, stderr: err }));
    writeFiles(py.FS, files);
    py.runPython("import sys\nsys.path[:0] = ['/lib', '/']\n");
    return [py.pyimport("browser_box"), memory];
  }
  const { loadMicroPython } = await import("./micropython.mjs");
  const [mp, memory] = await withMemory(() => loadMicroPython({ heapsize: 4 * 1024 * 1024, linebuffer: true, stdout: out, stderr: err }));
  writeFiles(mp.FS, files);
  mp.runPython("import sys\nsys.path[:] = ['/lib', '/', '.frozen']\n");
  return [mp.pyimport("browser_box"), memory];
}

// ------------------------------------------------------------------- the screen

const fb = new Uint32Array(W * H);
const image = new ImageData(new Uint8ClampedArray(fb.buffer), W, H);
const screen = document.createElement("canvas");
screen.width = W;
screen.height = H;
const sctx = screen.getContext("2d");

function abgr(rgb) {
  // 0xRRGGBB -> a framebuffer pixel (RGBA bytes, little-endian), in the colours the
  // box's RGB565 panel can show (5, 6 and 5 bits, widened as the window widens them)
  const r = Math.floor(((rgb >> 19) & 31) * 255 / 31);
  const g = Math.floor(((rgb >> 10) & 63) * 255 / 63);
  const b = Math.floor(((rgb >> 3) & 31) * 255 / 31);
  return (0xff000000 | (b << 16) | (g << 8) | r) >>> 0;
}

function span(x0, x1, y, c) {
  if (y < 0 || y >= H) return;
  if (x0 < 0) x0 = 0;
  if (x1 > W) x1 = W;
  if (x0 < x1) fb.fill(c, y * W + x0, y * W + x1);
}

function polygon(cmd, i, x, y, c, n) {
  // CircuitPython's vectorio: the winding number at each pixel of the points' box
  let x1 = 32768, y1 = 32768, x2 = 0, y2 = 0;
  const px = [], py = [];
  for (let k = 0; k < n; k++) {
    px.push(cmd[i + 2 * k]);
    py.push(cmd[i + 2 * k + 1]);
    x1 = Math.min(x1, px[k]); y1 = Math.min(y1, py[k]);
    x2 = Math.max(x2, px[k]); y2 = Math.max(y2, py[k]);
  }
  for (let v = y1; v < y2; v++) {
    for (let u = x1; u < x2; u++) {
      let wn = 0;
      for (let k = 0; k < n; k++) {
        const ax = px[k], ay = py[k], bx = px[(k + 1) % n], by = py[(k + 1) % n];
        const side = (u - ax) * (by - ay) - (v - ay) * (bx - ax);
        if (ay <= v) { if (by > v && side < 0) wn++; } else if (by <= v && side > 0) wn--;
      }
      if (wn !== 0) span(x + u, x + u + 1, y + v, c);
    }
  }
}

function raster(buffer, at, n) {
  const cmd = new Int32Array(buffer, at, n);
  const mem = new Uint8Array(buffer);
  fb.fill(0xff000000);
  let i = 0;
  while (i < n) {
    const op = cmd[i];
    if (op === RECT) {
      const [x, y, w, h, c] = cmd.subarray(i + 1, i + 6);
      if (c >= 0) for (let v = y; v < y + h; v++) span(x, x + w, v, abgr(c));
      i += 6;
    } else if (op === CIRCLE) {
      const [x, y, r, c] = cmd.subarray(i + 1, i + 5);
      if (c >= 0) {
        for (let dy = -r; dy <= r; dy++) {
          const dx = Math.floor(Math.sqrt(r * r - dy * dy));
          span(x - dx, x + dx + 1, y + dy, abgr(c));
        }
      }
      i += 5;
    } else if (op === POLYGON) {
      const [x, y, c, k] = cmd.subarray(i + 1, i + 5);
      if (c >= 0) polygon(cmd, i + 5, x, y, abgr(c), k);
      i += 5 + 2 * k;
    } else if (op === TILES) {
      const [x, y, s, cols, rows, tw, th, bm, bw, bh, nc] = cmd.subarray(i + 1, i + 12);
      const pal = [];
      for (let k = 0; k < nc; k++) pal.push(cmd[i + 12 + k] < 0 ? -1 : abgr(cmd[i + 12 + k]));
      const tiles = i + 12 + nc;
      const across = Math.max(1, Math.floor(bw / tw));
      for (let r = 0; r < rows; r++) {
        for (let col = 0; col < cols; col++) {
          const t = cmd[tiles + r * cols + col];
          const sx = (t % across) * tw;
          const sy = Math.floor(t / across) * th;
          if (sy + th > bh) continue;
          const ox = x + col * tw * s;
          const oy = y + r * th * s;
          for (let v = 0; v < th; v++) {
            const src = bm + (sy + v) * bw + sx;
            for (let u = 0; u < tw; u++) {
              const c = pal[mem[src + u]];
              if (c === undefined || c < 0) continue;
              for (let k = 0; k < s; k++) span(ox + u * s, ox + u * s + s, oy + v * s + k, c);
            }
          }
        }
      }
      i += 12 + nc + cols * rows;
    } else {
      throw new Error("unknown draw command " + op + " at " + i);
    }
  }
  sctx.putImageData(image, 0, 0);
}

// ------------------------------------------------------------------- the table

const canvas = document.getElementById("table");
const ctx = canvas.getContext("2d");
let zones = [];  // [{seat, x, y, w, h, flip}] in canvas pixels
let screenRect = null;
let lastSeats = -1;

function layout(seats) {
  // Seats 1.. along the bottom edge left to right, then the top edge right to left
  // (a tablet lying between the players); the screen in the middle, scaled by a
  // whole number of device pixels.
  const dpr = window.devicePixelRatio || 1;
  const cw = Math.max(1, Math.round(canvas.clientWidth * dpr));
  const ch = Math.max(1, Math.round(canvas.clientHeight * dpr));
  if (canvas.width !== cw || canvas.height !== ch) {
    canvas.width = cw;
    canvas.height = ch;
  }
  const n = seats;
  const below = Math.ceil(n / 2);
  const above = n - below;
  const bands = above ? 2 : 1;
  const least = 64 * dpr;  // the thinnest band of zones
  let k = Math.floor(Math.min(cw / W, (ch - bands * least) / H));
  if (k < 1) k = Math.max(0.25, Math.min(cw / W, (ch - bands * least) / H));
  const sw = Math.round(W * k), sh = Math.round(H * k);
  const band = Math.round(Math.min((ch - sh) / bands, 200 * dpr, cw * 0.3));
  zones = [];
  const row = (count, y, flip, first, step) => {
    const w = cw / count;
    for (let j = 0; j < count; j++) {
      zones.push({ seat: first + step * j, x: Math.round(j * w), y, w: Math.round(w), h: band, flip });
    }
  };
  row(below, ch - band, false, 1, 1);
  if (above) row(above, 0, true, n, -1);
  const top = above ? band : 0;
  const areaH = ch - band - top;
  screenRect = { x: Math.round((cw - sw) / 2), y: Math.round(top + (areaH - sh) / 2), w: sw, h: sh };
}

function rgbCss(c, dim) {
  let r = (c >> 16) & 255, g = (c >> 8) & 255, b = c & 255;
  if (dim) { r = r * dim | 0; g = g * dim | 0; b = b * dim | 0; }
  return `rgb(${r},${g},${b})`;
}

function drawZone(z, state) {
  const p = z.seat;
  const down = state[DOWN + p - 1] === 1;
  const base = STATION_RGB[p - 1];
  ctx.save();
  ctx.translate(z.x + z.w / 2, z.y + z.h / 2);
  if (z.flip) ctx.rotate(Math.PI);
  const pad = Math.max(2, z.h * 0.04);
  const w = z.w - 2 * pad, h = z.h - 2 * pad;
  ctx.fillStyle = down ? "#4a4a52" : "#1e1e24";
  ctx.strokeStyle = rgbCss(base, 0.8);
  ctx.lineWidth = Math.max(2, z.h * 0.02);
  ctx.beginPath();
  ctx.roundRect(-w / 2, -h / 2, w, h, Math.min(w, h) * 0.12);
  ctx.fill();
  ctx.stroke();
  const R = Math.min(w, h) * 0.3;
  ctx.fillStyle = "#141414";
  ctx.beginPath(); ctx.arc(0, -h * 0.08, R * 1.25, 0, 2 * Math.PI); ctx.fill();
  for (let k = 0; k < PER_RING; k++) {
    const c = state[RINGS + (p - 1) * PER_RING + k];
    const a = 2 * Math.PI * k / PER_RING - Math.PI / 2;
    ctx.fillStyle = c ? rgbCss(c) : "#37373c";
    ctx.beginPath();
    ctx.arc(R * Math.cos(a), -h * 0.08 + R * Math.sin(a), R * 0.2, 0, 2 * Math.PI);
    ctx.fill();
  }
  ctx.fillStyle = down ? "#e6e6e6" : "#781414";
  ctx.beginPath(); ctx.arc(0, -h * 0.08, R * 0.55, 0, 2 * Math.PI); ctx.fill();
  ctx.fillStyle = "#f0f0f0";
  ctx.textAlign = "center";
  ctx.textBaseline = "alphabetic";
  ctx.font = `bold ${Math.round(h * 0.16)}px system-ui, sans-serif`;
  ctx.fillText("P" + p + "  (key " + p + ")", 0, h / 2 - h * 0.06);
  ctx.restore();
}

function drawTable(state) {
  const seats = state[SEATS] || STATIONS;
  if (seats !== lastSeats) {
    lastSeats = seats;
    layout(seats);
  }
  ctx.fillStyle = "#28282e";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  for (const z of zones) drawZone(z, state);
  const r = screenRect;
  ctx.fillStyle = "#000";
  ctx.fillRect(r.x - 4, r.y - 4, r.w + 8, r.h + 8);
  if (state[LIT]) {
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(screen, r.x, r.y, r.w, r.h);
  }  // the backlight off: a black panel, as on the box (the stimulus is drawn in the dark)
}

// ------------------------------------------------------------------- sound

let audio = null;
function audioOn() {
  if (!audio) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return;
    const ac = new AC();
    const osc = ac.createOscillator();
    const gain = ac.createGain();
    osc.type = "square";  // a piezo on a PWM pin
    gain.gain.value = 0;
    osc.connect(gain).connect(ac.destination);
    osc.start();
    audio = { ac, osc, gain };
  }
  if (audio.ac.state === "suspended") audio.ac.resume();
}

globalThis.refereeTone = (freq) => {
  page.tones.push([Math.round(performance.now()), freq]);
  if (page.tones.length > 200) page.tones.shift();
  if (!audio) return;
  const t = audio.ac.currentTime;
  if (freq > 0) audio.osc.frequency.setValueAtTime(freq, t);
  audio.gain.gain.setValueAtTime(freq > 0 ? 0.05 : 0, t);
};

// ------------------------------------------------------------------- input

let api = null;
const holders = new Map();  // input -> how many keys, touches and pointers hold it down

function press(input, down, t) {
  const n = holders.get(input) || 0;
  const m = down ? n + 1 : Math.max(0, n - 1);
  holders.set(input, m);
  if ((n === 0) !== (m === 0) && api) api.edge(input, t, down);
}

function releaseAll(t) {
  for (const [input, n] of holders) if (n) { holders.set(input, 1); press(input, false, t); }
  touches.clear();
  keys.clear();
}

const keys = new Set();
function keyInput(e) {
  if (e.ctrlKey || e.altKey || e.metaKey) return 0;
  const m = /^(Digit|Numpad)([1-7])$/.exec(e.code);
  if (m) return +m[2];
  return e.code === "KeyM" ? MENU : 0;
}
window.addEventListener("keydown", (e) => {
  if (document.getElementById("settings").open) return;
  const input = keyInput(e);
  if (!input) return;
  e.preventDefault();
  audioOn();
  if (e.repeat || keys.has(e.code)) return;
  keys.add(e.code);
  press(input, true, e.timeStamp);
});
window.addEventListener("keyup", (e) => {
  const input = keyInput(e);
  if (!input || !keys.has(e.code)) return;
  keys.delete(e.code);
  press(input, false, e.timeStamp);
});
window.addEventListener("blur", () => releaseAll(performance.now()));

function zoneAt(clientX, clientY) {
  const box = canvas.getBoundingClientRect();
  const dpr = canvas.width / box.width;
  const x = (clientX - box.left) * dpr, y = (clientY - box.top) * dpr;
  for (const z of zones) if (x >= z.x && x < z.x + z.w && y >= z.y && y < z.y + z.h) return z.seat;
  return 0;
}

// Touch events, not pointer events: one event carries every finger that went down
// at that instant, all stamped with the same time (a tie at the box's precision).
const touches = new Map();  // touch identifier -> input
function touchStart(e) {
  e.preventDefault();
  audioOn();
  for (const t of e.changedTouches) {
    const input = zoneAt(t.clientX, t.clientY);
    if (input) {
      touches.set(t.identifier, input);
      press(input, true, e.timeStamp);
    }
  }
}
function touchEnd(e) {
  e.preventDefault();
  for (const t of e.changedTouches) {
    const input = touches.get(t.identifier);
    if (input) {
      touches.delete(t.identifier);
      press(input, false, e.timeStamp);
    }
  }
}
canvas.addEventListener("touchstart", touchStart, { passive: false });
canvas.addEventListener("touchend", touchEnd, { passive: false });
canvas.addEventListener("touchcancel", touchEnd, { passive: false });

// A mouse (or pen) on a zone or on the MENU button.
const pointers = new Map();
function pointerDown(e, input) {
  if (e.pointerType === "touch" || !input) return;
  e.preventDefault();
  audioOn();
  e.target.setPointerCapture(e.pointerId);
  pointers.set(e.pointerId, input);
  press(input, true, e.timeStamp);
}
function pointerUp(e) {
  const input = pointers.get(e.pointerId);
  if (!input) return;
  pointers.delete(e.pointerId);
  press(input, false, e.timeStamp);
}
canvas.addEventListener("pointerdown", (e) => pointerDown(e, zoneAt(e.clientX, e.clientY)));
const menuButton = document.getElementById("menu");
menuButton.addEventListener("pointerdown", (e) => pointerDown(e, MENU));
for (const el of [canvas, menuButton]) {
  el.addEventListener("pointerup", pointerUp);
  el.addEventListener("pointercancel", pointerUp);
}
menuButton.addEventListener("touchstart", (e) => { e.preventDefault(); audioOn(); press(MENU, true, e.timeStamp); }, { passive: false });
menuButton.addEventListener("touchend", (e) => { e.preventDefault(); press(MENU, false, e.timeStamp); }, { passive: false });

document.getElementById("full").addEventListener("click", () => {
  if (document.fullscreenElement) document.exitFullscreen();
  else document.documentElement.requestFullscreen().catch(() => {});
});
window.addEventListener("resize", () => { lastSeats = -1; });

// ------------------------------------------------------------------- settings

let spec = null;

function savedSettings() {
  try {
    const s = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}");
    return s && typeof s === "object" ? s : {};
  } catch (e) {
    return {};
  }
}

function shownValue(row, env) {
  if (row.key in env) return String(env[row.key]);
  if (row.kind === "bool") return row.default ? "1" : "0";
  return String(row.default);
}

function buildForm(env) {
  const fields = document.getElementById("fields");
  fields.textContent = "";
  for (const row of spec.settings) {
    const label = document.createElement("label");
    const name = document.createElement("span");
    name.textContent = row.key.slice("REFEREE_".length).toLowerCase();
    let input;
    const value = shownValue(row, env);
    const choices = row.kind === "bool" ? [["1", "on"], ["0", "off"]]
      : row.kind === "game" ? spec.games.map((g) => [g, g])
        : (row.kind === "choice" || row.kind === "pick") ? row.low.map((v) => [String(v), String(v)]) : null;
    if (choices) {
      input = document.createElement("select");
      for (const [v, text] of choices) input.add(new Option(text, v, false, v === value));
    } else {
      input = document.createElement("input");
      if (row.kind === "int") {
        input.type = "number";
        input.min = row.low;
        input.max = row.high;
        input.step = 1;
      } else {
        input.placeholder = "e.g. 2,3";
      }
      input.value = value;
    }
    input.name = row.key;
    const doc = document.createElement("small");
    doc.textContent = row.doc;
    label.append(name, input, doc);
    fields.append(label);
  }
}

function formSettings() {
  const env = {};
  for (const el of document.getElementById("settings-form").elements) {
    if (el.name && el.name.startsWith("REFEREE_")) env[el.name] = el.value;
  }
  return env;
}

const dialog = document.getElementById("settings");
document.getElementById("open-settings").addEventListener("click", () => {
  if (!spec) return;
  buildForm(savedSettings());
  dialog.returnValue = "";  // Esc closes without a value: nothing is applied
  dialog.showModal();
});
dialog.addEventListener("close", () => {
  if (dialog.returnValue === "apply") {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(formSettings()));
    boot();
  } else if (dialog.returnValue === "defaults") {
    localStorage.removeItem(SETTINGS_KEY);
    boot();
  }
});

// ------------------------------------------------------------------- the loop

let memory = null;
let stateAt = 0;

function boot() {
  releaseAll(performance.now());
  const seed = crypto.getRandomValues(new Uint32Array(1))[0];
  stateAt = api.boot(JSON.stringify(savedSettings()), String(seed));  // (ints cross as 32-bit signed)
  lastSeats = -1;
}

function frame() {
  requestAnimationFrame(frame);
  const t0 = performance.now();
  const flags = api.loop(t0);
  const t1 = performance.now();
  page.passes.push(t1 - t0);
  if (page.passes.length > 20000) page.passes.splice(0, 10000);
  const buffer = memory.buffer;
  const state = new Int32Array(buffer, stateAt, STATE_LEN);
  if (flags & 1) {
    raster(buffer, state[SCENE], state[SCENE_LEN]);
    page.rasters.push(performance.now() - t1);
  }
  drawTable(state);
  page.frames++;
  if (flags & 2) api.drawn(performance.now());  // the lit (or dark) frame is handed over now
  if (page.firstScreen === null && state[LIT]) {
    page.firstScreen = performance.now();
    document.getElementById("loading").classList.add("gone");
  }
}

function stats(list) {
  const a = list.slice().sort((x, y) => x - y);
  const q = (f) => (a.length ? a[Math.min(a.length - 1, Math.floor(f * a.length))] : null);
  return { n: a.length, mean: a.length ? a.reduce((s, x) => s + x, 0) / a.length : null, p50: q(0.5), p95: q(0.95), max: a.length ? a[a.length - 1] : null };
}

// For the tests and tools/web.py's measurements.
Object.assign(page, {
  status: () => JSON.parse(api.status()),
  launch: (name, players, bots, seed) => api.launch(name, players, JSON.stringify(bots || []), seed === undefined ? "" : String(seed)),
  advance: (ms) => api.advance(ms),
  stats: () => ({
    runtime: page.runtime, firstScreenMs: page.firstScreen, bootMs: page.bootMs, frames: page.frames,
    pass: stats(page.passes), raster: stats(page.rasters),
    bytes: performance.getEntriesByType("resource").concat(performance.getEntriesByType("navigation"))
      .reduce((s, e) => s + (e.encodedBodySize || 0), 0),
  }),
  clearStats: () => { page.passes = []; page.rasters = []; },
  zones: () => {  // the seats' touch zones in CSS pixels of the page
    const box = canvas.getBoundingClientRect();
    const k = box.width / canvas.width;
    return zones.map((z) => ({ seat: z.seat, x: box.left + z.x * k, y: box.top + z.y * k, w: z.w * k, h: z.h * k }));
  },
  screenPng: () => screen.toDataURL("image/png"),  // the 320x240 framebuffer as drawn
});

async function main() {
  const loading = document.getElementById("loading");
  try {
    const files = await (await fetch("py.json")).json();
    let memory_;
    [api, memory_] = await loadPython(files);
    memory = memory_;
    spec = JSON.parse(api.spec());
    boot();
    page.bootMs = performance.now();
    requestAnimationFrame(frame);
  } catch (e) {
    loading.textContent = "The box did not start:\n" + (e && e.message ? e.message : e);
    page.error = String(e && e.stack ? e.stack : e);
    throw e;
  }
  if ("serviceWorker" in navigator && location.protocol.startsWith("http")) {
    navigator.serviceWorker.register("sw.js").catch(() => {});  // offline once loaded
  }
}

main();
