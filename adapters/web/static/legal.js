// The state's `legal` answers sorted for the board: which cells may be picked up, where
// each may go, and which answer a from-to pair stands for (promotions, Alea's joker and
// castle tokens, reroll).

const MOVE = /^([a-z]+\d+)([a-z]+\d+)([a-z]?)$/;

/** A UCI move's parts, or null: "e7e8q" -> {from: "e7", to: "e8", promo: "q"}. */
export function parseMove(text) {
  const m = MOVE.exec(text);
  return m ? { from: m[1], to: m[2], promo: m[3] } : null;
}

export class Legal {
  /** answers: the state's legal list. */
  constructor(answers) {
    this.kinds = { plain: new Map(), joker: new Map(), castle: new Map() };
    this.reroll = false;
    for (const answer of answers || []) {
      if (answer === "reroll") {
        this.reroll = true;
        continue;
      }
      const colon = answer.indexOf(":");
      const kind = colon < 0 ? "plain" : answer.slice(0, colon);
      const move = parseMove(colon < 0 ? answer : answer.slice(colon + 1));
      if (!move || !(kind in this.kinds)) continue;
      const byFrom = this.kinds[kind];
      if (!byFrom.has(move.from)) byFrom.set(move.from, new Map());
      const byTo = byFrom.get(move.from);
      if (!byTo.has(move.to)) byTo.set(move.to, []);
      byTo.get(move.to).push({ answer, promo: move.promo });
    }
  }

  /** Whether answers of kind (plain, joker, castle) exist. */
  has(kind) {
    return this.kinds[kind].size > 0;
  }

  /** Whether cell holds a piece that may move in kind. */
  canMove(cell, kind) {
    return this.kinds[kind].has(cell);
  }

  /** The cells the piece on `from` may go to in kind. */
  targets(from, kind) {
    return new Set(this.kinds[kind].get(from)?.keys() || []);
  }

  /** The answers from `from` to `to` in kind: [{answer, promo}] (several: a promotion). */
  answers(from, to, kind) {
    return this.kinds[kind].get(from)?.get(to) || [];
  }
}
