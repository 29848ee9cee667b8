// Fog of War between two people: the curtain over the board between turns, and the
// button that lifts it for the player to move.
import { t } from "./i18n.js";

export class Curtain {
  constructor(el, send) {
    this.el = el;
    this.button = el.querySelector("[data-action=lift]");
    this.button.addEventListener("click", () => send({ t: "lift" }));
  }

  /** Down while state.curtain is set; says whose turn it is. */
  update(state) {
    const down = Boolean(state.curtain) && !state.over;
    this.el.hidden = !down;
    if (down) {
      const side = t(state.curtain.next === 0 ? "white" : "black");
      this.button.textContent = t("lift", { side });
      if (!this.el.contains(document.activeElement)) this.button.focus();
    }
  }
}
