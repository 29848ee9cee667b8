// The live region's words for the last move: "White pawn moved from e4 to e5", or "White
// moved" for a move the viewer did not see.
import { t } from "./i18n.js";
import { parseMove } from "./legal.js";

function sideName(side) {
  return t(side === 0 ? "white" : "black");
}

/** The sentence for the newest move of state (prev: the state before), or null. */
export function moveSentence(prev, state) {
  const moves = state.moves;
  const before = prev && prev.id === state.id ? prev.moves.length : 0;
  if (moves.length < before) return t("undone");
  if (moves.length === before || moves.length === 0) return null;
  const [side, answer, text] = moves[moves.length - 1];
  const move = parseMove(answer.replace(/^\w+:/, ""));
  if (text === "?" || !move) return t("moved.hidden", { side: sideName(side) });
  const letter = (prev && prev.id === state.id && prev.pieces[move.from]) || state.pieces[move.to];
  if (!letter) return t("moved.hidden", { side: sideName(side) });
  return t("moved", {
    side: sideName(side), piece: t(`piece.${letter.toLowerCase()}`), from: move.from, to: move.to,
  });
}

/** Say text in the live region (the same text twice is said again). */
export function announce(el, text) {
  if (!text) return;
  el.textContent = "";
  requestAnimationFrame(() => { el.textContent = text; });
}
