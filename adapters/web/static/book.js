// The opening's name (#opening) and the Quantum Book's moves for the position (#book).
import { t } from "./i18n.js";

function cell(tag, text) {
  const el = document.createElement(tag);
  el.textContent = text;
  return el;
}

export function renderBook(openingEl, bookEl, state) {
  const o = state.opening;
  openingEl.hidden = !o;
  openingEl.textContent = o ? `${t("opening")}: ${o.eco ? `${o.eco} ` : ""}${o.name}` : "";
  const book = state.book;
  bookEl.replaceChildren();
  bookEl.hidden = !book;
  if (!book) return;
  if (book.moves?.length) {
    const table = document.createElement("table");
    table.append(cell("caption", `${t("book")} (${book.games})`));
    const head = document.createElement("tr");
    for (const key of ["book.move", "book.share", "book.games", "book.score"]) {
      head.append(cell("th", t(key)));
    }
    table.append(head);
    for (const m of book.moves) {
      const row = document.createElement("tr");
      row.dataset.move = m.move;
      row.append(cell("td", m.text), cell("td", `${Math.round(m.share * 100)} %`),
        cell("td", String(m.games)),
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
