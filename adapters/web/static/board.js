// The SVG board: square and hexagonal cells from the `layout` message, the pieces, the
// highlights (selected, target, last, check, fog, lost, threat), coordinates, the board's
// orientation, click and drag input and the engine's move animated.
import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const ROOT3 = Math.sqrt(3);
const MARKS = ["selected", "target", "last", "check", "fog", "lost", "threat"];

function make(tag, attrs = {}, parent = null) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (parent) parent.append(el);
  return el;
}

/** The cell name's file letters and rank number: "f11" -> ["f", 11]. */
export function splitCell(name) {
  const m = /^([a-z]+)(\d+)$/.exec(name);
  return m ? [m[1], Number(m[2])] : [name, 0];
}

/** The colour and name of a piece letter ("N" white knight, "q" black queen). */
export function pieceWords(letter) {
  const white = letter === letter.toUpperCase();
  return { colour: t(white ? "colour.white" : "colour.black"), piece: t(`piece.${letter.toLowerCase()}`), white };
}

export class Board {
  /** svg: the #board element; handlers: {activate(cell), canDrag(cell), drop(from, to)}. */
  constructor(svg, handlers) {
    this.svg = svg;
    this.handlers = handlers;
    this.cells = new Map();         // name -> {el, x, y, c, sx, sy, piece}
    this.flipped = false;
    this.face = false;
    this.svg.addEventListener("click", (e) => this._click(e));
    this.svg.addEventListener("pointerdown", (e) => this._pointerDown(e));
  }

  /** Build the cells of a layout message (shape square or hex). */
  setLayout(layout) {
    this.layout = layout;
    this.hex = layout.shape === "hex";
    this.svg.replaceChildren();
    this.svg.classList.toggle("hex", this.hex);
    this.svg.classList.toggle("square", !this.hex);
    const defs = make("defs", {}, this.svg);
    const grad = make("radialGradient", { id: "check-glow" }, defs);
    make("stop", { offset: "0%", "stop-color": "#ff0000", "stop-opacity": "1" }, grad);
    make("stop", { offset: "45%", "stop-color": "#e70000", "stop-opacity": "0.85" }, grad);
    make("stop", { offset: "100%", "stop-color": "#a90000", "stop-opacity": "0" }, grad);
    this.cellLayer = make("g", { class: "cells" }, this.svg);
    this.coordLayer = make("g", { class: "coords", "aria-hidden": "true" }, this.svg);
    this.cells.clear();
    this.focusCell = null;
    // ARIA grid rows: one per rank, the highest first (the hex ranks are chevrons).
    const rows = new Map();
    const byRank = [...layout.cells].sort((a, b) => splitCell(b.n)[1] - splitCell(a.n)[1]);
    for (const cell of byRank) {
      const rank = splitCell(cell.n)[1];
      if (!rows.has(rank)) rows.set(rank, make("g", { role: "row" }, this.cellLayer));
    }
    for (const cell of layout.cells) {
      const el = make("g", { class: "cell", role: "gridcell", "data-cell": cell.n, tabindex: "-1" },
        rows.get(splitCell(cell.n)[1]));
      this.cells.set(cell.n, { ...cell, el, piece: null });
    }
    this._place();
  }

  /** Turn the board: flipped puts Black at the bottom. */
  setOrientation(flipped, face) {
    if (flipped === this.flipped && face === this.face) return;
    this.flipped = flipped;
    this.face = face;
    if (this.layout) this._place();
  }

  /** Every cell's screen centre, shape and the coordinates, for the orientation. */
  _place() {
    const s = this.flipped ? -1 : 1;
    for (const cell of this.cells.values()) {
      const [bx, by] = this.hex ? [1.5 * cell.x, -cell.y * ROOT3 / 2] : [cell.x, -cell.y];
      cell.sx = s * bx;
      cell.sy = s * by;
      const el = cell.el;
      el.replaceChildren();
      const shape = this._shape(cell);
      shape.setAttribute("class", `sq tone-${cell.c}`);
      el.append(shape);
      const hl = this._shape(cell);
      hl.setAttribute("class", "hl");
      el.append(hl);
      make("circle", { class: "dot", cx: cell.sx, cy: cell.sy, r: this.hex ? 0.3 : 0.17 }, el);
      make("circle", { class: "ring", cx: cell.sx, cy: cell.sy, r: this.hex ? 0.78 : 0.47 }, el);
      const m = 0.22 * (this.hex ? 1.2 : 1);
      make("path", {
        class: "lost-mark",
        d: `M${cell.sx - m} ${cell.sy - m}L${cell.sx + m} ${cell.sy + m}M${cell.sx + m} ${cell.sy - m}L${cell.sx - m} ${cell.sy + m}`,
      }, el);
      cell.image = null;
      const piece = cell.piece;
      cell.piece = null;
      this._setPiece(cell, piece);
    }
    const xs = [...this.cells.values()].map((c) => c.sx);
    const ys = [...this.cells.values()].map((c) => c.sy);
    const half = this.hex ? 1 : 0.5;
    const margin = this.hex ? 1.1 : 0.45;
    const top = this.hex ? 1.1 : 0.05;
    const vb = [Math.min(...xs) - half - margin, Math.min(...ys) - half - top, 0, 0];
    vb[2] = Math.max(...xs) + half + (this.hex ? margin : 0.05) - vb[0];
    vb[3] = Math.max(...ys) + half + (this.hex ? 1.1 : margin) - vb[1];
    this.svg.setAttribute("viewBox", vb.map((v) => v.toFixed(3)).join(" "));
    this._coords();
  }

  _shape(cell) {
    if (!this.hex) {
      return make("rect", { x: cell.sx - 0.5, y: cell.sy - 0.5, width: 1, height: 1 });
    }
    const pts = [];
    for (let i = 0; i < 6; i++) {
      const a = (Math.PI / 3) * i;
      pts.push(`${(cell.sx + Math.cos(a)).toFixed(4)},${(cell.sy + Math.sin(a)).toFixed(4)}`);
    }
    return make("polygon", { points: pts.join(" ") });
  }

  /** File letters and rank numbers around the board. Square: files under the bottom
   * row, ranks left of the left column. Hex: each file's letter beyond its first-rank
   * cell (under it, over it on a turned board), each rank's number beyond its leftmost
   * cell (the left column, else across the slanted edge). */
  _coords() {
    this.coordLayer.replaceChildren();
    const files = new Map();
    const ranks = new Map();
    const bottom = (cell) => (this.hex ? -splitCell(cell.n)[1] : cell.sy);
    for (const cell of this.cells.values()) {
      const [file, rank] = splitCell(cell.n);
      if (!files.has(file) || bottom(cell) > bottom(files.get(file))) files.set(file, cell);
      if (!ranks.has(rank) || cell.sx < ranks.get(rank).sx) ranks.set(rank, cell);
    }
    const minX = Math.min(...[...this.cells.values()].map((c) => c.sx));
    const size = this.hex ? 0.55 : 0.3;
    const down = this.hex && this.flipped ? -1 : 1;
    for (const [file, cell] of files) {
      const y = cell.sy + down * (this.hex ? ROOT3 / 2 + 0.45 : 0.5 + 0.32)
        + (down < 0 ? size * 0.7 : 0);
      make("text", { x: cell.sx, y, "font-size": size, class: "coord file" }, this.coordLayer)
        .textContent = file;
    }
    const cy = [...this.cells.values()].reduce((a, c) => a + c.sy, 0) / this.cells.size;
    for (const [rank, cell] of ranks) {
      let dx = -1;
      let dy = 0;
      if (this.hex && cell.sx > minX + 0.01) {
        // Off the left column: on the slanted edge, outward across it.
        dx = -0.5;
        dy = cell.sy < cy ? -ROOT3 / 2 : ROOT3 / 2;
      }
      const dist = this.hex ? 1.35 : 0.5 + 0.2;
      make("text", {
        x: cell.sx + dx * dist, y: cell.sy + dy * dist + size * 0.35, "font-size": size,
        class: "coord rank",
      }, this.coordLayer).textContent = String(rank);
    }
  }

  _setPiece(cell, letter) {
    if (cell.piece === letter && cell.image) return;
    cell.piece = letter;
    if (cell.image) cell.image.remove();
    cell.image = null;
    if (!letter) return;
    const white = letter === letter.toUpperCase();
    const size = this.hex ? 1.45 : 1;
    const g = make("g", { class: "pc" });
    const img = make("image", {
      href: `/static/pieces/${white ? "w" : "b"}${letter.toLowerCase()}.svg`,
      x: cell.sx - size / 2, y: cell.sy - size / 2, width: size, height: size, class: "piece",
    }, g);
    if (this.face && !white) img.setAttribute("transform", `rotate(180 ${cell.sx} ${cell.sy})`);
    cell.el.insertBefore(g, cell.el.querySelector(".dot"));
    cell.image = g;
  }

  /** Draw a view: {pieces, marks: {class: Set of cells}, hidePieces}. */
  render(view) {
    for (const cell of this.cells.values()) {
      const letter = view.hidePieces ? null : view.pieces[cell.n] || null;
      this._setPiece(cell, letter);
      for (const mark of MARKS) {
        cell.el.classList.toggle(mark, Boolean(view.marks[mark]?.has(cell.n)));
      }
      cell.el.classList.toggle("occupied", Boolean(letter));
      let label;
      if (view.marks.fog?.has(cell.n)) label = t("cell.fog", { cell: cell.n });
      else if (letter) label = t("cell.piece", { cell: cell.n, ...pieceWords(letter) });
      else label = t("cell.empty", { cell: cell.n });
      cell.el.setAttribute("aria-label", label);
    }
    if (!this.focusCell || !this.cells.has(this.focusCell)) {
      this.setFocusCell(view.defaultFocus || this.layout.cells[0].n, false);
    }
  }

  /** Slide the piece now on `to` from `from` (the move just made). */
  animate(from, to) {
    const a = this.cells.get(from);
    const b = this.cells.get(to);
    if (!a || !b || !b.image || !b.image.animate) return;
    // A copy slides on top of every cell; the piece itself shows once it has arrived.
    const piece = b.image;
    const ghost = piece.cloneNode(true);
    ghost.classList.add("ghost");
    this.svg.append(ghost);
    piece.style.visibility = "hidden";
    const slide = ghost.animate([{ transform: `translate(${a.sx - b.sx}px, ${a.sy - b.sy}px)` },
      { transform: "translate(0, 0)" }], { duration: 220, easing: "ease-out" });
    const done = () => {
      ghost.remove();
      piece.style.visibility = "";
    };
    slide.onfinish = done;
    slide.oncancel = done;
  }

  /** Roving focus: cell gets tabindex 0 (and the focus, when move is true). */
  setFocusCell(name, move = true) {
    if (!this.cells.has(name)) return;
    if (this.focusCell && this.cells.has(this.focusCell)) {
      this.cells.get(this.focusCell).el.setAttribute("tabindex", "-1");
    }
    this.focusCell = name;
    const el = this.cells.get(name).el;
    el.setAttribute("tabindex", "0");
    if (move) el.focus();
  }

  /** The cell next to `from` nearest the screen direction (dx, dy), or null. */
  neighbour(from, dx, dy) {
    const a = this.cells.get(from);
    if (!a) return null;
    const reach = this.hex ? 2.0 : 1.5;
    const rank = splitCell(from)[1];
    let best = null;
    let bestScore = Infinity;
    for (const b of this.cells.values()) {
      const vx = b.sx - a.sx;
      const vy = b.sy - a.sy;
      const dist = Math.hypot(vx, vy);
      if (dist < 0.01 || dist > reach) continue;
      const cos = (vx * dx + vy * dy) / dist;
      if (cos < (this.hex ? 0.45 : 0.95)) continue;      // square boards: straight only
      // Hex left/right has two neighbours at 30°: the one on the same rank wins.
      const score = (1 - cos) * 10 + dist + (splitCell(b.n)[1] === rank ? 0 : 0.001);
      if (score < bestScore) {
        bestScore = score;
        best = b.n;
      }
    }
    return best;
  }

  _cellOf(target) {
    const el = target?.closest?.("[data-cell]");
    return el && this.svg.contains(el) ? el.dataset.cell : null;
  }

  _click(event) {
    if (this.dragged) {
      this.dragged = false;
      return;
    }
    const cell = this._cellOf(event.target);
    if (cell) {
      this.setFocusCell(cell, false);
      this.handlers.activate(cell);
    }
  }

  _pointerDown(event) {
    const from = this._cellOf(event.target);
    if (!from || event.button !== 0 || !this.handlers.canDrag(from)) return;
    const cell = this.cells.get(from);
    const start = [event.clientX, event.clientY];
    let ghost = null;
    const toSvg = (e) => {
      const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(this.svg.getScreenCTM().inverse());
      return [p.x, p.y];
    };
    const move = (e) => {
      if (!ghost && Math.hypot(e.clientX - start[0], e.clientY - start[1]) < 5) return;
      if (!ghost) {
        ghost = cell.image.cloneNode(true);
        ghost.classList.add("ghost");
        this.svg.append(ghost);
        cell.image.classList.add("lifted");
        this.handlers.dragStart?.(from);
      }
      const [x, y] = toSvg(e);
      ghost.setAttribute("transform", `translate(${x - cell.sx} ${y - cell.sy})`);
    };
    const up = (e) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      if (!ghost) return;
      ghost.remove();
      cell.image?.classList.remove("lifted");
      this.dragged = true;
      setTimeout(() => { this.dragged = false; }, 0);
      const over = this._cellOf(document.elementFromPoint(e.clientX, e.clientY));
      this.handlers.drop(from, over);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
  }
}
