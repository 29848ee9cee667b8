// The opening's name (#opening) and the Quantum Book's moves for the position (#book);
// a book move the page may play now is a button that plays it.
import { t } from "./i18n.js";

function cell(tag, text) {
  const el = document.createElement(tag);
  el.textContent = text;
  return el;
}

const ROWS = 8;

/** playable(move): whether the page may play that UCI move now; play(move) plays it. */
export function renderBook(openingEl, bookEl, state, playable, play) {
  const o = state.opening;
  openingEl.hidden = !o;
  openingEl.textContent = o ? `${t("opening")}: ${o.eco ? `${o.eco} ` : ""}${o.name}` : "";
  const book = state.book;
  bookEl.replaceChildren();
  bookEl.hidden = !book;
  if (!book) return;
  if (book.moves?.length) {
    const table = document.createElement("table");
    table.append(cell("caption",
      `${t("book")} (${book.games.toLocaleString(document.documentElement.lang)})`));
    const head = document.createElement("tr");
    for (const key of ["book.move", "book.share", "book.games", "book.score"]) {
      head.append(cell("th", t(key)));
    }
    table.append(head);
    for (const m of book.moves.slice(0, ROWS)) {
      const row = document.createElement("tr");
      row.dataset.move = m.move;
      const first = document.createElement("td");
      if (playable(m.move)) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "book-move";
        button.textContent = m.text;
        button.addEventListener("click", () => play(m.move));
        first.append(button);
      } else {
        first.textContent = m.text;
      }
      const share = m.share * 100;
      row.append(first, cell("td", `${share < 10 ? share.toFixed(1) : Math.round(share)} %`),
        cell("td", m.games.toLocaleString(document.documentElement.lang)),
        cell("td", m.score === null || m.score === undefined ? "—" : `${Math.round(m.score * 100)} %`));
      table.append(row);
    }
    bookEl.append(table);
  }
  if (book.left) {
    bookEl.append(cell("p", t("book.left", {
      side: t(book.left.side === 0 ? "white" : "black"), text: book.left.text, ply: book.left.ply,
    })));
  }
}
