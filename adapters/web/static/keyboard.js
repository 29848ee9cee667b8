// Keyboard play on the board: arrow keys move the roving focus to the neighbouring cell
// in that screen direction, Enter or Space picks up / puts down, Escape cancels.

const DIRECTIONS = {
  ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0],
};

/** Listen on the board's svg; actions: {activate(cell), cancel()}. */
export function attachKeyboard(board, actions) {
  board.svg.addEventListener("keydown", (event) => {
    const cell = event.target.closest?.("[data-cell]")?.dataset.cell || board.focusCell;
    if (event.key in DIRECTIONS) {
      const [dx, dy] = DIRECTIONS[event.key];
      const next = board.neighbour(cell, dx, dy);
      if (next) board.setFocusCell(next);
      event.preventDefault();
    } else if (event.key === "Enter" || event.key === " ") {
      if (cell) actions.activate(cell);
      event.preventDefault();
    } else if (event.key === "Escape") {
      actions.cancel();
      event.preventDefault();
    } else if (event.key === "Home" || event.key === "End") {
      const names = [...board.cells.keys()];
      board.setFocusCell(event.key === "Home" ? names[0] : names[names.length - 1]);
      event.preventDefault();
    }
  });
}

/** Page keys outside the board and the form fields: f flips the board; after the game
 * the left and right arrows (Home, End) step through the replay. actions: {flip(),
 * replay(action) -> whether a replay is there}. */
export function attachShortcuts(board, actions) {
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (event.altKey || event.ctrlKey || event.metaKey || board.svg.contains(target)
        || target.closest?.("input, select, textarea, button, a, [role=dialog]")) return;
    const step = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first",
      End: "replay-last" }[event.key];
    if (event.key === "f") {
      actions.flip();
      event.preventDefault();
    } else if (step && actions.replay(step)) {
      event.preventDefault();
    }
  });
}
