// The result box (the result and its reason in words, the PGN download) and the replay
// that steps through the finished game's positions.
import { t } from "./i18n.js";

const SCORES = { 1: "1–0", 0.5: "½–½", 0: "0–1", 0.75: "¾–¼", 0.25: "¼–¾" };
const REASONS = ["checkmate", "stalemate", "king_captured", "fifty_moves", "repetition",
  "insufficient", "resignation", "agreement", "time", "adjudication", "abandoned", "engine",
  "other"];

/** The result in words: "White wins by checkmate · 1–0"; hex stalemate "White stalemated
 * Black: ¾–¼". */
export function resultWords(result) {
  const white = result.white;
  const score = SCORES[white] ?? result.text ?? "";
  const winner = white > 0.5 ? t("white") : white < 0.5 && white !== null ? t("black") : null;
  const loser = white > 0.5 ? t("black") : white < 0.5 && white !== null ? t("white") : null;
  const reason = REASONS.includes(result.reason) ? result.reason : "other";
  if (reason === "stalemate" && (white === 0.75 || white === 0.25)) {
    return t("stalemated", { winner, loser, score });
  }
  const head = winner === null ? (white === 0.5 ? t("result.draw") : t("result.none"))
    : t(white > 0.5 ? "result.white" : "result.black");
  let why = t(`reason.${reason}`, { loser });
  if (reason === "time" && !loser) why = t(white === 0.5 ? "reason.time.draw" : "reason.other");
  else if (reason === "resignation" && !loser) why = t("reason.other");
  return `${head} — ${why} · ${score}`;
}

export class ResultBox {
  constructor(el) {
    this.el = el;
    this.text = el.querySelector(".result-text");
    this.far = el.querySelector(".result-far");
    this.link = el.querySelector("#pgn");
    this.url = null;
    this.shownFor = null;
    el.querySelector(".result-close").addEventListener("click", () => { el.hidden = true; });
  }

  /** Show the end of state (once per game; hidden again for a running game). */
  update(state) {
    if (!state.over || !state.result) {
      this.el.hidden = true;
      this.shownFor = null;
      return;
    }
    const key = `${state.id}:${state.moves.length}`;
    if (this.shownFor === key) return;
    this.shownFor = key;
    const r = state.result;
    this.el.dataset.reason = r.reason;
    this.el.dataset.white = r.white === null ? "" : String(r.white);
    const words = resultWords(r);
    this.text.textContent = words;
    this.far.textContent = words;
    if (this.url) URL.revokeObjectURL(this.url);
    this.url = URL.createObjectURL(new Blob([state.pgn || ""], { type: "application/x-chess-pgn" }));
    this.link.href = this.url;
    this.link.download = `quantum-${state.setup.game}.pgn`;
    this.el.hidden = false;
  }
}

/** Stepping through `replay`: index 0 the first position, null: the live end. */
export class Replay {
  constructor(el, onChange) {
    this.el = el;
    this.at = el.querySelector("#replay-at");
    this.onChange = onChange;
    this.positions = [];
    this.index = null;
    for (const button of el.querySelectorAll("button")) {
      button.addEventListener("click", () => this.step(button.dataset.action));
    }
  }

  update(state) {
    this.positions = state.over && Array.isArray(state.replay) ? state.replay : [];
    this.el.hidden = this.positions.length === 0;
    if (!this.positions.length) this.index = null;
    this._buttons();
  }

  /** The position to draw now, or null for the state's own. */
  current() {
    return this.index === null ? null : this.positions[this.index];
  }

  /** Show the position after `ply` answers (the last one: the live end). */
  goTo(ply) {
    const last = this.positions.length - 1;
    if (last < 0) return;
    const index = Math.max(0, Math.min(last, ply));
    this.index = index === last ? null : index;
    this._buttons();
    this.onChange();
  }

  step(action) {
    const last = this.positions.length - 1;
    if (last < 0) return;
    const now = this.index === null ? last : this.index;
    this.goTo({ "replay-first": 0, "replay-prev": now - 1, "replay-next": now + 1,
      "replay-last": last }[action]);
  }

  _buttons() {
    const last = this.positions.length - 1;
    const now = this.index === null ? last : this.index;
    for (const button of this.el.querySelectorAll("button")) {
      const back = button.dataset.action === "replay-first" || button.dataset.action === "replay-prev";
      button.disabled = last < 0 || (back ? now <= 0 : now >= last);
    }
    this.at.textContent = last < 0 ? "" : t("replay.at", { i: now, n: last });
  }
}
