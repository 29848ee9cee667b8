// The move list: ol#moves, one li per answer's text (SAN, coordinates, "?" hidden).

/** Draw moves ([side, answer, text] each) of a game begun at move number `first`;
 * current: the replay's position, or null. Each
 * li's data-num is its move number ("12." before White's answer, "12…" before Black's
 * when it starts a row: the first answer of a game begun by Black, or after an Alea
 * reroll), "" where the row already has it. */
export function renderMoves(ol, moves, current = null, first = 1) {
  const items = ol.children;
  let number = first - 1;
  for (let i = 0; i < moves.length; i++) {
    const [side, , text] = moves[i];
    const before = i > 0 ? moves[i - 1][0] : null;
    if (side === 0 ? before !== 0 : before === null) number += 1;
    const num = side === 0 ? (before !== 0 ? `${number}.` : "") : (before === 0 ? "" : `${number}…`);
    let li = items[i];
    if (!li) {
      li = document.createElement("li");
      ol.append(li);
    }
    if (li.textContent !== text) li.textContent = text;
    li.dataset.side = side === 0 ? "w" : "b";
    li.dataset.num = num;
    li.classList.toggle("hidden-move", text === "?");
    li.classList.toggle("current", current === null ? i === moves.length - 1 : i === current - 1);
  }
  while (items.length > moves.length) ol.lastElementChild.remove();
  const box = ol.parentElement;
  if (box && current === null) box.scrollTop = box.scrollHeight;
}
