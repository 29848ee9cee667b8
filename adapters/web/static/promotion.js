// The promotion panel: one button per legal choice (and "stay a pawn" where promotion is
// optional); Escape or a click outside the choices cancels.
import { t } from "./i18n.js";

export class Promotion {
  constructor(el) {
    this.el = el;
    this.choices = el.querySelector(".choices");
    this.onCancel = null;
    el.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        this.cancel();
      }
    });
  }

  get open() {
    return !this.el.hidden;
  }

  /** Ask: options [{answer, promo}] ("" promo: stay a pawn); white: the pieces' colour. */
  ask(options, white, onPick, onCancel) {
    this.onCancel = onCancel;
    this.choices.replaceChildren();
    const order = "qcarbn";
    const sorted = [...options].sort((a, b) =>
      (a.promo ? order.indexOf(a.promo) : 9) - (b.promo ? order.indexOf(b.promo) : 9));
    for (const option of sorted) {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.piece = option.promo || "-";
      if (option.promo) {
        const name = t(`piece.${option.promo}`);
        button.setAttribute("aria-label", name);
        button.title = name;
        const img = document.createElement("img");
        img.src = `/static/pieces/${white ? "w" : "b"}${option.promo}.svg`;
        img.alt = "";
        button.append(img);
      } else {
        button.setAttribute("aria-label", t("promotion.stay"));
        button.textContent = t("promotion.stay");
        button.classList.add("stay");
      }
      button.addEventListener("click", () => {
        this.close();
        onPick(option.answer);
      });
      this.choices.append(button);
    }
    this.el.hidden = false;
    this.choices.querySelector("button")?.focus();
  }

  close() {
    this.el.hidden = true;
    this.choices.replaceChildren();
  }

  cancel() {
    if (!this.open) return;
    this.close();
    this.onCancel?.();
  }
}
