// Alea on the page: the two dice, both sides' joker counts, the cooldowns, the free
// opening, the castle follow-up, the promotion die, the joker/reroll/castle buttons and
// the Quantum guide's notes (threats first, their cells drawn red).
import { t } from "./i18n.js";

function sideName(i) {
  return t(i === 0 ? "white" : "black");
}

export class AleaPanel {
  /** root: section#alea; send: the connection's send; onMode(kind): the board's answer kind. */
  constructor(root, send, onMode) {
    this.root = root;
    this.dice = root.querySelector("#dice");
    this.free = root.querySelector("#free-phase");
    this.cooldown = root.querySelector("#cooldown");
    this.followUp = root.querySelector("#follow-up");
    this.promotionDie = root.querySelector("#promotion-die");
    this.guideBox = root.querySelector(".guide-box");
    this.guideList = root.querySelector("#guide");
    this.buttons = Object.fromEntries(["joker", "reroll", "castle"].map(
      (a) => [a, root.querySelector(`[data-action=${a}]`)]));
    this.mode = "plain";
    this.onMode = onMode;
    this.buttons.reroll.addEventListener("click", () => send({ t: "move", move: "reroll" }));
    for (const kind of ["joker", "castle"]) {
      this.buttons[kind].addEventListener("click", () => {
        this.setMode(this.mode === kind ? "plain" : kind);
      });
    }
  }

  /** Which answers a board move stands for: plain, joker or castle. */
  setMode(kind) {
    this.mode = kind;
    for (const k of ["joker", "castle"]) {
      this.buttons[k].setAttribute("aria-pressed", String(kind === k));
    }
    this.onMode(kind);
  }

  /** Draw state's extra and guide; legal: its Legal; canAct: the page may answer now. */
  update(state, legal, canAct) {
    const x = state.extra || {};
    const isAlea = state.setup.game === "alea";
    this.root.hidden = !isAlea;
    for (const id of ["jokers-white", "jokers-black"]) document.getElementById(id).hidden = true;
    if (!isAlea) return;
    this._dice(x);
    const classic = Boolean(x.classic);
    this.root.hidden = classic;                         // Classic: no dice, no jokers
    for (const [i, id] of ["jokers-white", "jokers-black"].entries()) {
      const el = document.getElementById(id);
      el.hidden = classic || !x.jokers;
      if (x.jokers) {
        el.textContent = t("jokers", { free: x.jokers[i], reroll: x.rerolls[i], castle: x.castle_jokers[i] });
      }
    }
    this.free.hidden = !x.free_phase;
    if (x.free_phase) {
      this.free.textContent = t("free-phase", { w: x.moves_made?.[0] ?? 0, b: x.moves_made?.[1] ?? 0,
                                                n: x.free_moves ?? 8 });
    }
    // A9: the type a side moved last waits one turn (pawns never do).
    const cools = (x.cooldown || []).map((p, i) => p && p !== "p" && t("cooldown.side",
      { side: sideName(i), piece: t(`piece.${p}`) })).filter(Boolean);
    this.cooldown.hidden = cools.length === 0 || classic;
    this.cooldown.textContent = cools.length ? t("cooldown", { list: cools.join("; ") }) : "";
    const due = (x.follow_up || []).map((f, i) => [f, i]).filter(([f]) => f);
    this.followUp.hidden = due.length === 0;
    this.followUp.textContent = due.map(([f, i]) =>
      `${sideName(i)}: ${t("follow-up", { rook: f[0], king: f[1] })}`).join(" ");
    // The promotion die's result, while its move is one of the last two answers.
    const promo = x.promotion && x.promotion.ply >= state.moves.length - 2 ? x.promotion : null;
    this.promotionDie.hidden = !promo;
    if (promo) {
      const img = document.createElement("img");
      img.src = `/static/pieces/${promo.cell.endsWith("1") ? "b" : "w"}${promo.piece}.svg`;
      img.alt = "";
      this.promotionDie.replaceChildren(img,
        t("promotion-die", { cell: promo.cell, piece: t(`piece.${promo.piece}`) }));
      this.promotionDie.dataset.piece = promo.piece;
    }
    for (const b of Object.values(this.buttons)) b.hidden = classic;
    this.buttons.reroll.disabled = !canAct || !legal.reroll;
    this.buttons.joker.disabled = !canAct || !legal.has("joker");
    this.buttons.castle.disabled = !canAct || !legal.has("castle");
    if (this.mode !== "plain" && (!canAct || !legal.has(this.mode))) this.setMode("plain");
    this._guide(state.guide);
  }

  _dice(x) {
    const dice = x.dice;
    this.dice.hidden = Boolean(x.classic);
    this.dice.classList.toggle("empty", !dice);
    while (this.dice.children.length < 2) {
      const die = document.createElement("div");
      die.className = "die";
      const img = document.createElement("img");
      img.alt = "";
      die.append(img, document.createElement("span"));
      this.dice.append(die);
    }
    for (const [i, die] of [...this.dice.children].entries()) {
      const piece = dice ? dice[i] : null;
      const [img, name] = die.children;
      die.dataset.piece = piece || "";
      img.hidden = !piece;
      if (piece) img.src = `/static/pieces/w${piece}.svg`;
      name.textContent = piece ? t(`piece.${piece}`) : "?";
      die.setAttribute("aria-label", piece ? t(`piece.${piece}`) : t("dice.none"));
    }
    this.dice.title = dice ? "" : t("dice.none");
  }

  _guide(guide) {
    const button = document.querySelector("[data-action=guide]");
    button.hidden = !guide;
    this.guideBox.hidden = !guide;
    if (!guide) return;
    button.setAttribute("aria-pressed", String(Boolean(guide.on)));
    const notes = [...(guide.notes || [])].sort((a, b) =>
      (a.kind === "threat" ? 0 : 1) - (b.kind === "threat" ? 0 : 1));
    this.guideList.replaceChildren();
    this.guideBox.querySelector(".guide-off").hidden = Boolean(guide.on);
    for (const note of notes) {
      const li = document.createElement("li");
      li.dataset.kind = note.kind;
      li.textContent = note.text;
      this.guideList.append(li);
    }
  }
}

/** The cells of the own pieces the guide warns of: a threat note's first cell (its
 * second is the attacker's). */
export function threatCells(state) {
  const cells = new Set();
  for (const note of state.guide?.notes || []) {
    if (note.kind === "threat" && note.cells?.length) cells.add(note.cells[0]);
  }
  return cells;
}
