// The clocks: the server's `clocks` seconds, counted down here between states for the
// side to move only (while the game runs).

export function formatClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds - 1e-9));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

export class Clocks {
  constructor(whiteEl, blackEl) {
    this.els = [whiteEl, blackEl];
    this.left = null;
    this.timer = setInterval(() => this._draw(), 200);
  }

  /** Take a state's clocks; the side to move's counts down until the next state. */
  update(state) {
    this.left = state.clocks;
    this.since = performance.now();
    this.running = state.over || state.curtain ? null : state.turn;
    for (const el of this.els) el.hidden = !this.left;
    this._draw();
  }

  _draw() {
    if (!this.left) return;
    for (const [i, el] of this.els.entries()) {
      const base = this.left[i];
      if (base === null || base === undefined) {
        el.textContent = "–:––";
        continue;
      }
      const now = i === this.running ? base - (performance.now() - this.since) / 1000 : base;
      const text = formatClock(now);
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("running", i === this.running);
      el.classList.toggle("low", now < 20);
    }
  }
}
