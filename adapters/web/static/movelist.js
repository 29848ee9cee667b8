// The move list: ol#moves, one li per answer's text (SAN, coordinates, "?" hidden).

export function renderMoves(ol, moves, current = null) {
  const items = ol.children;
  for (let i = 0; i < moves.length; i++) {
    const [side, , text] = moves[i];
    let li = items[i];
    if (!li) {
      li = document.createElement("li");
      ol.append(li);
    }
    if (li.textContent !== text) li.textContent = text;
    li.dataset.side = side === 0 ? "w" : "b";
    li.classList.toggle("hidden-move", text === "?");
    li.classList.toggle("current", current === null ? i === moves.length - 1 : i === current - 1);
  }
  while (items.length > moves.length) ol.lastElementChild.remove();
  // The first move is Black's in a position set up with Black to move.
  ol.classList.toggle("black-first", moves.length > 0 && moves[0][0] === 1);
  const box = ol.parentElement;
  if (box && current === null) box.scrollTop = box.scrollHeight;
}
