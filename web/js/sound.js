// sound.js: the page's sounds, made with WebAudio (no file is loaded): a
// move, a capture and a game's end; a switch turns them off, kept in the
// browser (localStorage). Each sound played is also counted in
// body[data-sounds] ("move,capture,...", the last 20), which tests read.

const KEY = "tablero.sound";
const KEEP = 20; // sounds remembered in data-sounds: enough for a test
let ctx = null;

// Notes of each sound: [frequency Hz, start s, length s, wave].
const NOTES = {
  move: [[660, 0, 0.07, "sine"]],
  capture: [[440, 0, 0.08, "square"], [220, 0.06, 0.12, "square"]],
  end: [[523, 0, 0.15, "triangle"], [659, 0.15, 0.15, "triangle"], [784, 0.3, 0.3, "triangle"]],
};

export function soundOn() {
  return localStorage.getItem(KEY) !== "off";
}

export function setSoundOn(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
}

// Play kind ("move", "capture", "end") unless sounds are off.
export function sound(kind) {
  if (!soundOn() || !NOTES[kind]) return;
  const done = (document.body.dataset.sounds || "").split(",").filter(Boolean);
  done.push(kind);
  document.body.dataset.sounds = done.slice(-KEEP).join(",");
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return;
  if (!ctx) ctx = new AC();
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  const t0 = ctx.currentTime + 0.01;
  for (const [freq, at, len, wave] of NOTES[kind]) {
    const osc = ctx.createOscillator(), gain = ctx.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t0 + at);
    gain.gain.exponentialRampToValueAtTime(0.2, t0 + at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t0 + at);
    osc.stop(t0 + at + len + 0.02);
  }
}

// What a move did, from the boards before and after it: a capture when a
// piece changed side or the pieces grew fewer (Ataxx's flips, Shape
// Shifter's and solitaire's takes), else a move.
const NOT_PIECE = new Set([".", "-", "#", "G", "*"]);
export function moveKind(before, after) {
  if (!before || !after || before.length !== after.length) return "move";
  let was = 0, now = 0, changed = false;
  for (let r = 0; r < before.length; r++)
    for (let c = 0; c < before[r].length; c++) {
      const a = before[r][c], b = (after[r] || "")[c];
      if (!NOT_PIECE.has(a)) was++;
      if (b !== undefined && !NOT_PIECE.has(b)) now++;
      if (!NOT_PIECE.has(a) && !NOT_PIECE.has(b) && b !== undefined && a.toLowerCase() !== b.toLowerCase()) changed = true;
    }
  return changed || now < was ? "capture" : "move";
}
