// Move sounds, made on the spot with Web Audio (no sound files): a soft knock for a move,
// a sharper one for a capture, two notes for check. Off with the page's sound button;
// the choice is kept in this browser (localStorage).

const KEY = "quantum-sound";
let context = null;
let unlocked = false;           // browsers let a page sound only after a person's gesture

for (const kind of ["pointerdown", "keydown"]) {
  document.addEventListener(kind, () => { unlocked = true; }, { once: true, capture: true });
}

export function soundOn() {
  try {
    return localStorage.getItem(KEY) !== "off";
  } catch {
    return true;
  }
}

export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    // storage refused (private mode): the choice lasts for this page only
  }
}

function tone(freq, start, length, gain) {
  const osc = context.createOscillator();
  const amp = context.createGain();
  osc.type = "triangle";
  osc.frequency.value = freq;
  amp.gain.setValueAtTime(gain, context.currentTime + start);
  amp.gain.exponentialRampToValueAtTime(0.0001, context.currentTime + start + length);
  osc.connect(amp).connect(context.destination);
  osc.start(context.currentTime + start);
  osc.stop(context.currentTime + start + length);
}

/** Play the sound of a move: kind "move", "capture" or "check". */
export function moveSound(kind) {
  if (!unlocked || !soundOn() || !(window.AudioContext || window.webkitAudioContext)) return;
  context ||= new (window.AudioContext || window.webkitAudioContext)();
  if (context.state === "suspended") context.resume().catch(() => {});
  if (kind === "check") {
    tone(660, 0, 0.12, 0.12);
    tone(880, 0.09, 0.16, 0.12);
  } else if (kind === "capture") {
    tone(220, 0, 0.09, 0.22);
    tone(150, 0.02, 0.12, 0.18);
  } else {
    tone(330, 0, 0.08, 0.16);
  }
}
